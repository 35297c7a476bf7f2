import { createHash } from "node:crypto";
import { db } from "@/lib/db/client.ts";
import { Prisma } from "@/lib/db/generated/client.ts";
import { ApiError } from "@/lib/http/errors.ts";
import type { Segment } from "@/lib/transcription/engines/types.ts";
import type { TranscribeFields, TranscriptionResult } from "@/lib/transcription/schemas.ts";

type TranscriptionRow = {
  id: string;
  text: string;
  language: string;
  durationSec: number;
  engine: string;
  segments: Prisma.JsonValue;
  dictionaryReplacements: number;
  createdAt: Date;
};

export function toTranscriptionResult(row: TranscriptionRow): TranscriptionResult {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    text: row.text,
    language: row.language,
    duration: row.durationSec,
    engine: row.engine,
    dictionary_replacements: row.dictionaryReplacements,
    segments: row.segments as Segment[],
  };
}

/** Identifies a request by what changes its result: the audio bytes, prompt, dict and language. */
export function requestHash(audioSha256: string, input: Pick<TranscribeFields, "prompt" | "dict" | "language">): string {
  const inputs = JSON.stringify([input.prompt ?? null, input.dict ?? null, input.language ?? null]);
  return createHash("sha256").update(`${audioSha256}\n${inputs}`).digest("hex");
}

const conflict = () =>
  new ApiError(
    "idempotency_conflict",
    "This Idempotency-Key was already used for a different recording or different options; use a new key.",
  );

/** The stored result for a retried request (same key, same inputs); 409 when the inputs differ. */
export async function findReplay({
  userId,
  idempotencyKey,
  hash,
}: {
  userId: string;
  idempotencyKey: string;
  hash: string;
}): Promise<TranscriptionResult | null> {
  const prisma = await db();
  const row = await prisma.transcription.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey } } });
  if (!row) return null;
  if (row.requestHash !== hash) throw conflict();
  return toTranscriptionResult(row);
}

export type NewTranscription = {
  text: string;
  rawText: string;
  language: string;
  durationSec: number;
  engine: string;
  segments: Segment[];
  dictionaryReplacements: number;
  audioSha256: string;
  requestHash: string;
};

/** Stores a result; when a concurrent retry with the same key stored first, returns that one. */
export async function saveTranscription({
  userId,
  idempotencyKey,
  data,
}: {
  userId: string;
  idempotencyKey?: string;
  data: NewTranscription;
}): Promise<{ result: TranscriptionResult; replayed: boolean }> {
  const prisma = await db();
  try {
    const row = await prisma.transcription.create({ data: { userId, idempotencyKey, ...data } });
    return { result: toTranscriptionResult(row), replayed: false };
  } catch (err) {
    if (idempotencyKey && err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const first = await findReplay({ userId, idempotencyKey, hash: data.requestHash });
      if (first) return { result: first, replayed: true };
    }
    throw err;
  }
}
