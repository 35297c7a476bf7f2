import { timingSafeEqual } from "node:crypto";
import { db } from "@/lib/db/client.ts";
import { unauthorized } from "@/lib/http/errors.ts";
import { hashApiKey, isWellFormedApiKey } from "@/lib/api-keys/key-format.ts";
import type { Scope } from "@/lib/api-keys/scopes.ts";
import { log, errorFields } from "@/lib/log.ts";
import { setBounded } from "@/lib/bounded-map.ts";

export type ApiPrincipal = { userId: string; keyId: string; scopes: Scope[] };

// last_used_at says when a key was last used, to the minute: it is written at most once a
// minute per key (and process). The row's own value decides across processes; the writes this
// process started decide among its concurrent requests, which all read the old value until the
// first write lands (without it, a burst of 32 requests wrote 32 times).
const LAST_USED_RESOLUTION_MS = 60_000;
const KEPT_MAX = 10_000; // keys remembered by each of the maps below
const lastUsedWrites = new Map<string, number>();

function shouldRecordUse(keyId: string, lastUsedAt: Date | null, now: number): boolean {
  if (lastUsedAt && now - lastUsedAt.getTime() <= LAST_USED_RESOLUTION_MS) return false;
  const started = lastUsedWrites.get(keyId);
  if (started !== undefined && now - started <= LAST_USED_RESOLUTION_MS) return false;
  setBounded(lastUsedWrites, keyId, now, KEPT_MAX, (at) => now - at > LAST_USED_RESOLUTION_MS);
  return true;
}

// Keys as this process last read them, by hash, for KEY_FRESH_MS: under load every request
// looked its key up again (a query and a third of a millisecond of CPU each, bench:api), though
// the answer changes only when a key is revoked. Concurrent requests share one lookup. Expiry is
// still checked on every request against the clock; a revocation in this process forgets them
// all at once (forgetKnownApiKeys), one made elsewhere (the admin CLI, another app process)
// takes effect within KEY_FRESH_MS. Unknown keys are never kept.
const KEY_FRESH_MS = 500;
type ApiKeyRow = NonNullable<Awaited<ReturnType<typeof readKey>>>;
type KnownKey = { row: Promise<ApiKeyRow | null>; readAt: number };
const kept = globalThis as unknown as { voicedraftKnownKeys?: Map<string, KnownKey> };

async function readKey(hash: string) {
  const prisma = await db();
  return prisma.apiKey.findUnique({
    where: { hash },
    select: { id: true, userId: true, hash: true, scopes: true, revokedAt: true, expiresAt: true, lastUsedAt: true },
  });
}

function findKey(hash: string, now: number): Promise<ApiKeyRow | null> {
  const known = (kept.voicedraftKnownKeys ??= new Map());
  const hit = known.get(hash);
  if (hit && now - hit.readAt <= KEY_FRESH_MS) return hit.row;
  const entry: KnownKey = { row: readKey(hash), readAt: now };
  setBounded(known, hash, entry, KEPT_MAX, (old) => now - old.readAt > KEY_FRESH_MS);
  const drop = () => known.get(hash) === entry && known.delete(hash);
  entry.row.then((row) => row || drop(), drop);
  return entry.row;
}

/** Forgets every key this process read: called when a key is revoked, so it fails at once here. */
export function forgetKnownApiKeys(): void {
  kept.voicedraftKnownKeys?.clear();
}

/** Resolves an Authorization header to the key's owner; every failure is a 401. */
export async function authenticateApiKey(authorization: string | null): Promise<ApiPrincipal> {
  if (!authorization) throw unauthorized("Send your API key in the header Authorization: Bearer <key>.");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized("The Authorization header must be of the form: Bearer <key>.");
  const key = match[1];
  if (!isWellFormedApiKey(key)) throw unauthorized("That is not a Voicedraft API key (they start with vd_).");

  const hash = hashApiKey(key);
  const found = await findKey(hash, Date.now());
  // The index lookup is by hash; compare again in constant time so equality is never short-circuited.
  if (!found || !timingSafeEqual(Buffer.from(found.hash, "hex"), Buffer.from(hash, "hex"))) {
    throw unauthorized("This API key is not known.");
  }
  const now = new Date();
  if (found.revokedAt) throw unauthorized("This API key was revoked.");
  if (found.expiresAt && found.expiresAt <= now) throw unauthorized("This API key has expired.");

  if (shouldRecordUse(found.id, found.lastUsedAt, now.getTime())) {
    (await db()).apiKey
      .update({ where: { id: found.id }, data: { lastUsedAt: now } })
      .catch((err) => log.warn("could not record key use", { key_id: found.id, ...errorFields(err) }));
  }
  return { userId: found.userId, keyId: found.id, scopes: found.scopes as Scope[] };
}
