import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client.ts";
import type { WebhookEndpoint } from "@/lib/db/generated/client.ts";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { assertWebhookUrlAllowed } from "@/lib/webhooks/url-guard.ts";
import {
  PREVIOUS_SECRET_HOURS,
  WEBHOOKS_MAX,
  type CreateWebhookInput,
  type UpdateWebhookInput,
  type Webhook,
  type WebhookEventType,
} from "@/lib/webhooks/schemas.ts";

// A person's webhook endpoints (owner only: a foreign id is not found). The secret leaves the
// server twice only: in the answers of create and rotate.

/** A Standard Webhooks secret: whsec_ and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function presentWebhook(row: WebhookEndpoint): Webhook {
  const previousValid = row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date();
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    previous_secret_expires_at: previousValid ? row.previousSecretExpiresAt!.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function ownEndpoint(userId: string, id: string): Promise<WebhookEndpoint> {
  const prisma = await db();
  const row = await prisma.webhookEndpoint.findFirst({ where: { id, userId } });
  if (!row) throw notFound(`The webhook ${id}`);
  return row;
}

export async function createWebhook({ userId, input }: { userId: string; input: CreateWebhookInput }): Promise<{ webhook: Webhook; secret: string }> {
  await assertWebhookUrlAllowed(input.url);
  const prisma = await db();
  const secret = newWebhookSecret();
  const row = await prisma.$transaction(async (tx) => {
    // One at a time per person, so two creates at the limit cannot both pass the count.
    await tx.$executeRaw`SELECT 1 FROM "users" WHERE "id" = ${userId} FOR UPDATE`;
    if ((await tx.webhookEndpoint.count({ where: { userId } })) >= WEBHOOKS_MAX) {
      throw new ApiError("webhook_limit_reached", `You have ${WEBHOOKS_MAX} webhooks, the most there can be; delete one first.`);
    }
    return tx.webhookEndpoint.create({ data: { userId, url: input.url, events: input.events, description: input.description ?? "", secret } });
  });
  return { webhook: presentWebhook(row), secret };
}

export async function listWebhooks({ userId }: { userId: string }): Promise<Webhook[]> {
  const prisma = await db();
  const rows = await prisma.webhookEndpoint.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(presentWebhook);
}

export async function getWebhook({ userId, id }: { userId: string; id: string }): Promise<Webhook> {
  return presentWebhook(await ownEndpoint(userId, id));
}

export async function updateWebhook({ userId, id, input }: { userId: string; id: string; input: UpdateWebhookInput }): Promise<Webhook> {
  const current = await ownEndpoint(userId, id);
  if (input.url !== undefined) await assertWebhookUrlAllowed(input.url);
  // Enabling (again) starts afresh: the reason it was disabled and its run of failures are cleared.
  const enabling = input.enabled === true && !current.enabled;
  const prisma = await db();
  const row = await prisma.webhookEndpoint.update({
    where: { id: current.id },
    data: {
      ...input,
      ...(enabling && { disabledReason: null, disabledAt: null, failingSince: null }),
    },
  });
  return presentWebhook(row);
}

export async function deleteWebhook({ userId, id }: { userId: string; id: string }): Promise<Webhook> {
  const row = await ownEndpoint(userId, id);
  const prisma = await db();
  await prisma.webhookEndpoint.deleteMany({ where: { id: row.id, userId } });
  return presentWebhook(row);
}

/** A new secret; the current one keeps signing beside it for PREVIOUS_SECRET_HOURS. */
export async function rotateWebhookSecret({ userId, id }: { userId: string; id: string }): Promise<{ webhook: Webhook; secret: string }> {
  const current = await ownEndpoint(userId, id);
  const secret = newWebhookSecret();
  const prisma = await db();
  const row = await prisma.webhookEndpoint.update({
    where: { id: current.id },
    data: { secret, previousSecret: current.secret, previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_HOURS * 3600_000) },
  });
  return { webhook: presentWebhook(row), secret };
}
