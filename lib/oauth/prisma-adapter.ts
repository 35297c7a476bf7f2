import type { Adapter, AdapterPayload } from "oidc-provider";
import { db } from "@/lib/db/client.ts";
import { Prisma } from "@/lib/db/generated/client.ts";

// oidc-provider's storage on Prisma, as its adapter interface describes: one row per model and
// id, the payload kept as the library wrote it. Expired rows are never returned (the library
// expects that of an adapter); they are swept when a new one is written.

const GRANTABLE = new Set(["AccessToken", "AuthorizationCode", "RefreshToken", "DeviceCode", "BackchannelAuthenticationRequest"]);
const SWEEP_EVERY_MS = 60_000;
let lastSweep = 0;

const live = () => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] });

function toPayload(row: { payload: Prisma.JsonValue; consumedAt: Date | null } | null): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = row.payload as AdapterPayload;
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

async function sweepExpired(): Promise<void> {
  const now = Date.now();
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  await (await db()).oAuthRecord.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
}

export class PrismaAdapter implements Adapter {
  constructor(private readonly model: string) {
    // The library passes its classes' names; a bundler that minifies it would make them "".
    if (!model) throw new Error("oidc-provider named no model: keep it in next.config.ts serverExternalPackages");
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const prisma = await db();
    const data = {
      payload: payload as Prisma.InputJsonValue,
      grantId: GRANTABLE.has(this.model) || this.model === "Grant" ? (payload.grantId ?? (this.model === "Grant" ? id : null)) : null,
      uid: payload.uid ?? null,
      userCode: payload.userCode ?? null,
      // Interactions name the person only inside: they go with the account too.
      accountId: payload.accountId ?? payload.session?.accountId ?? payload.result?.login?.accountId ?? null,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await prisma.oAuthRecord.upsert({ where: { model_id: { model: this.model, id } }, create: { model: this.model, id, ...data }, update: data });
    await sweepExpired();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const prisma = await db();
    return toPayload(await prisma.oAuthRecord.findFirst({ where: { model: this.model, id, ...live() } }));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const prisma = await db();
    return toPayload(await prisma.oAuthRecord.findFirst({ where: { model: this.model, uid, ...live() } }));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const prisma = await db();
    return toPayload(await prisma.oAuthRecord.findFirst({ where: { model: this.model, userCode, ...live() } }));
  }

  async consume(id: string): Promise<void> {
    const prisma = await db();
    await prisma.oAuthRecord.updateMany({ where: { model: this.model, id }, data: { consumedAt: new Date() } });
  }

  async destroy(id: string): Promise<void> {
    const prisma = await db();
    await prisma.oAuthRecord.deleteMany({ where: { model: this.model, id } });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const prisma = await db();
    await prisma.oAuthRecord.deleteMany({ where: { model: this.model, grantId } });
  }
}
