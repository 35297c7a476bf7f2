import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { db } from "@/lib/db/client.ts";
import { idempotencyConflict, KEY_KINDS } from "@/lib/idempotency/key-kinds.ts";

// Claims are for the one kind of key whose work is long: an upload's Idempotency-Key (recognition
// takes seconds to minutes, and must not run twice for racing retries). The content keys need none:
// their master's or item's row lock serialises the requests, and their unique index does the rest.

/** A key claimed for a user, with the hash of the request that claimed it. */
export type ClaimRef = { userId: string; idempotencyKey: string; hash: string };
export type Answer<T> = { result: T; replayed: boolean };

// Polling works the same on PostgreSQL and on the embedded database, and across processes.
const POLL_MS = 150;
const HEARTBEAT_MS = 5_000;
// A claim not renewed for this long belongs to a process that died; must exceed HEARTBEAT_MS.
const STALE_SECONDS = 30;

/** Inserts the claim, or takes over a stale one; true when this request now holds it. */
async function tryClaim({ userId, idempotencyKey, hash }: ClaimRef, token: string): Promise<boolean> {
  const prisma = await db();
  const rows = await prisma.$queryRaw<{ token: string }[]>`
    INSERT INTO "transcription_claims" ("user_id", "idempotency_key", "request_hash", "token")
    VALUES (${userId}, ${idempotencyKey}, ${hash}, ${token})
    ON CONFLICT ("user_id", "idempotency_key") DO UPDATE
      SET "request_hash" = EXCLUDED."request_hash", "token" = EXCLUDED."token", "heartbeat_at" = now()
      WHERE "transcription_claims"."heartbeat_at" < now() - make_interval(secs => ${STALE_SECONDS})
    RETURNING "token"`;
  if (rows.length > 0) return true;
  const holder = await prisma.noteClaim.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey } } });
  if (holder && holder.requestHash !== hash) throw idempotencyConflict(KEY_KINDS.upload);
  return false;
}

/** Whether a live request holds the key's claim (one whose heartbeat has not stopped). */
async function claimHeld({ userId, idempotencyKey }: ClaimRef): Promise<boolean> {
  const prisma = await db();
  const rows = await prisma.$queryRaw<{ held: boolean }[]>`
    SELECT true AS held FROM "transcription_claims"
    WHERE "user_id" = ${userId} AND "idempotency_key" = ${idempotencyKey}
      AND "heartbeat_at" >= now() - make_interval(secs => ${STALE_SECONDS})`;
  return rows.length > 0;
}

async function renewClaim({ userId, idempotencyKey }: ClaimRef, token: string): Promise<void> {
  const prisma = await db();
  await prisma.$executeRaw`
    UPDATE "transcription_claims" SET "heartbeat_at" = now()
    WHERE "user_id" = ${userId} AND "idempotency_key" = ${idempotencyKey} AND "token" = ${token}`;
}

async function releaseClaim({ userId, idempotencyKey }: ClaimRef, token: string): Promise<void> {
  const prisma = await db();
  await prisma.noteClaim.deleteMany({ where: { userId, idempotencyKey, token } });
}

/**
 * Runs a keyed request once: the first request with a key claims it before any work, concurrent
 * retries wait and replay its stored answer (`findReplay`, which refuses another request with the
 * key), and a different request with the key gets 409. When the first fails, its claim is
 * released and a waiting retry runs instead.
 */
export async function runOnce<T>(ref: ClaimRef, findReplay: () => Promise<T | null>, run: () => Promise<Answer<T>>): Promise<Answer<T>> {
  const token = randomUUID();
  for (;;) {
    const replay = await findReplay();
    // The first request stores its answer, then finishes it (an upload keeps its recording): a
    // replay waits for the whole answer (its claim released, or gone stale with a process that
    // died), not just the row.
    if (replay && !(await claimHeld(ref))) return { result: (await findReplay()) ?? replay, replayed: true };
    if (!replay && (await tryClaim(ref, token))) break;
    await sleep(POLL_MS);
  }
  const heartbeat = setInterval(() => void renewClaim(ref, token).catch(() => undefined), HEARTBEAT_MS);
  heartbeat.unref();
  try {
    // The holder before us may have stored its answer just before we claimed.
    const replay = await findReplay();
    if (replay) return { result: replay, replayed: true };
    return await run();
  } finally {
    clearInterval(heartbeat);
    await releaseClaim(ref, token);
  }
}
