import { createHash } from "node:crypto";
import { db } from "@/lib/db/client.ts";
import { Prisma } from "@/lib/db/generated/client.ts";
import { isUniqueViolation } from "@/lib/db/unique-violation.ts";
import { ApiError } from "@/lib/http/errors.ts";
import type { Segment } from "@/lib/transcription/engines/types.ts";
import type { Optimization, TranscribeFields, TranscriptionResult } from "@/lib/transcription/schemas.ts";

type WorkflowRow = {
  id: string;
  name: string;
  optimizer: string;
  mode: string;
  status: string;
  callId: string;
  executionId: string | null;
  chunksTotal: number;
  chunksDone: number;
  optimizedText: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  completedAt: Date | null;
};

type TranscriptionRow = {
  id: string;
  optimization?: WorkflowRow | null;
  text: string;
  language: string;
  durationSec: number;
  engine: string;
  segments: Prisma.JsonValue;
  dictionaryReplacements: number;
  createdAt: Date;
  updatedAt: Date;
  recordingId: string | null;
  recordingPart: number | null;
};

export function toTranscriptionResult(row: TranscriptionRow): TranscriptionResult {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    text: row.text,
    language: row.language,
    duration: row.durationSec,
    engine: row.engine,
    dictionary_replacements: row.dictionaryReplacements,
    segments: row.segments as Segment[],
    recording: row.recordingId !== null && row.recordingPart !== null ? { id: row.recordingId, part: row.recordingPart } : null,
    ...(row.optimization && optimizationFields(row.optimization)),
  };
}

function optimizationFields(w: WorkflowRow): Pick<TranscriptionResult, "optimizer_processing" | "optimization"> {
  return {
    optimizer_processing: {
      optimizer_workflow_name: w.name,
      optimizer_workflow_id: w.id,
      optimizer_call_id: w.callId,
      optimizer_execution_id: w.executionId,
    },
    optimization: {
      status: w.status as Optimization["status"],
      optimizer: w.optimizer as Optimization["optimizer"],
      mode: w.mode as Optimization["mode"],
      progress: { chunks_done: w.chunksDone, chunks_total: w.chunksTotal },
      text: w.status === "completed" ? w.optimizedText : null,
      error: w.errorCode ? { code: w.errorCode, message: w.errorMessage ?? "" } : null,
      completed_at: w.completedAt?.toISOString() ?? null,
    },
  };
}

/** Identifies a request by what changes its result: the audio bytes, prompt, dict and language. */
export function requestHash(
  audioSha256: string,
  input: Pick<TranscribeFields, "prompt" | "dict" | "language"> & Partial<Pick<TranscribeFields, "recording_id" | "recording_part">>,
): string {
  const fields: unknown[] = [input.prompt ?? null, input.dict ?? null, input.language ?? null];
  if (input.recording_id !== undefined) fields.push(input.recording_id, input.recording_part);
  const inputs = JSON.stringify(fields);
  return createHash("sha256").update(`${audioSha256}\n${inputs}`).digest("hex");
}

export const idempotencyConflict = () =>
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
  const row = await prisma.transcription.findUnique({
    where: { userId_idempotencyKey: { userId, idempotencyKey } },
    include: { optimization: true },
  });
  if (!row) return null;
  if (row.requestHash !== hash) throw idempotencyConflict();
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
  optimizationId: string | null;
  recordingId?: string;
  recordingPart?: number;
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
    const row = await prisma.transcription.create({ data: { userId, idempotencyKey, ...data }, include: { optimization: true } });
    return { result: toTranscriptionResult(row), replayed: false };
  } catch (err) {
    if (idempotencyKey && isUniqueViolation(err)) {
      const first = await findReplay({ userId, idempotencyKey, hash: data.requestHash });
      if (first) return { result: first, replayed: true };
    }
    throw err;
  }
}
