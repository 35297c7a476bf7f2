import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { db } from "@/lib/db/client.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { IdempotencyKey, type TranscriptionResult } from "@/lib/transcription/schemas.ts";
import { findReplay, idempotencyConflict } from "@/lib/transcription/transcripts/save-transcription.ts";

/** The request's Idempotency-Key header, validated (400 when malformed). */
export function parseIdempotencyKey(req: Request): string | undefined {
  const parsed = IdempotencyKey.safeParse(req.headers.get("idempotency-key") ?? undefined);
  if (!parsed.success) {
    throw new ApiError("validation_failed", "The Idempotency-Key header must be 1–255 visible ASCII characters.", {
      details: [{ path: "Idempotency-Key", message: "must be 1–255 visible ASCII characters" }],
    });
  }
  return parsed.data;
}

type KeyRef = { userId: string; idempotencyKey: string; hash: string };
type Transcribed = { result: TranscriptionResult; replayed: boolean };

// Polling works the same on PostgreSQL and on the embedded database, and across processes.
const POLL_MS = 150;
const HEARTBEAT_MS = 5_000;
// A claim not renewed for this long belongs to a process that died; must exceed HEARTBEAT_MS.
const STALE_SECONDS = 30;

/** Inserts the claim, or takes over a stale one; true when this request now holds it. */
async function tryClaim({ userId, idempotencyKey, hash }: KeyRef, token: string): Promise<boolean> {
  const prisma = await db();
  const rows = await prisma.$queryRaw<{ token: string }[]>`
    INSERT INTO "transcription_claims" ("user_id", "idempotency_key", "request_hash", "token")
    VALUES (${userId}, ${idempotencyKey}, ${hash}, ${token})
    ON CONFLICT ("user_id", "idempotency_key") DO UPDATE
      SET "request_hash" = EXCLUDED."request_hash", "token" = EXCLUDED."token", "heartbeat_at" = now()
      WHERE "transcription_claims"."heartbeat_at" < now() - make_interval(secs => ${STALE_SECONDS})
    RETURNING "token"`;
  if (rows.length > 0) return true;
  const holder = await prisma.transcriptionClaim.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey } } });
  if (holder && holder.requestHash !== hash) throw idempotencyConflict();
  return false;
}

/** Whether a live request holds the key's claim (one whose heartbeat has not stopped). */
async function claimHeld({ userId, idempotencyKey }: KeyRef): Promise<boolean> {
  const prisma = await db();
  const rows = await prisma.$queryRaw<{ held: boolean }[]>`
    SELECT true AS held FROM "transcription_claims"
    WHERE "user_id" = ${userId} AND "idempotency_key" = ${idempotencyKey}
      AND "heartbeat_at" >= now() - make_interval(secs => ${STALE_SECONDS})`;
  return rows.length > 0;
}

async function renewClaim({ userId, idempotencyKey }: KeyRef, token: string): Promise<void> {
  const prisma = await db();
  await prisma.$executeRaw`
    UPDATE "transcription_claims" SET "heartbeat_at" = now()
    WHERE "user_id" = ${userId} AND "idempotency_key" = ${idempotencyKey} AND "token" = ${token}`;
}

async function releaseClaim({ userId, idempotencyKey }: KeyRef, token: string): Promise<void> {
  const prisma = await db();
  await prisma.transcriptionClaim.deleteMany({ where: { userId, idempotencyKey, token } });
}

/**
 * Runs a keyed request once: the first request with a key claims it before any work, concurrent
 * retries wait and replay its stored result, a different request with the key gets 409. When the
 * first fails, its claim is released and a waiting retry runs instead.
 */
export async function withIdempotencyKey(ref: KeyRef, run: () => Promise<Transcribed>): Promise<Transcribed> {
  const token = randomUUID();
  for (;;) {
    const replay = await findReplay(ref);
    // The first request saves its note, then keeps its recording: a replay waits for the whole
    // answer (its claim released, or gone stale with a process that died), not just the row.
    if (replay && !(await claimHeld(ref))) return { result: (await findReplay(ref)) ?? replay, replayed: true };
    if (!replay && (await tryClaim(ref, token))) break;
    await sleep(POLL_MS);
  }
  const heartbeat = setInterval(() => void renewClaim(ref, token).catch(() => undefined), HEARTBEAT_MS);
  heartbeat.unref();
  try {
    // The holder before us may have stored its result just before we claimed.
    const replay = await findReplay(ref);
    if (replay) return { result: replay, replayed: true };
    return await run();
  } finally {
    clearInterval(heartbeat);
    await releaseClaim(ref, token);
  }
}
