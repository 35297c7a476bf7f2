import { db } from "@/lib/db/client.ts";
import { isUniqueViolation } from "@/lib/db/unique-violation.ts";
import { KEY_KINDS, replayOrConflict } from "@/lib/idempotency/key-kinds.ts";
import { hashRequest } from "@/lib/idempotency/request-hash.ts";
import { writeNoteInsights } from "@/lib/insights/write-note-insights.ts";
import type { Segment } from "@/lib/notes/segment.ts";
import { labelsOfRecording } from "@/lib/tags/set-note-labels.ts";
import { presentNote } from "@/lib/notes/present-note.ts";
import type { TranscribeFields } from "@/lib/transcription/schemas.ts";
import type { TranscriptionResult } from "@/lib/notes/schemas.ts";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event.ts";

/** Identifies a request by what changes its result: the audio bytes, prompt, dict and language. */
export function uploadRequestHash(
  audioSha256: string,
  input: Pick<TranscribeFields, "prompt" | "dict" | "language"> & Partial<Pick<TranscribeFields, "recording_id" | "recording_part">>,
): string {
  const { prompt, dict, language, recording_id, recording_part } = input;
  return hashRequest({ audio_sha256: audioSha256, prompt, dict, language, recording_id, recording_part });
}

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
  const earlier = replayOrConflict(KEY_KINDS.upload, row, hash);
  return earlier && presentNote(earlier);
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
  recordedAt?: Date;
  /** The recording is being compressed to keep, after the answer (a live recording's Stop). */
  audioPendingSince?: Date;
  /** The whole recording is to be heard again after the answer (a live recording's second pass). */
  textImprovingSince?: Date;
};

/** Stores a result; when a concurrent retry with the same key stored first, returns that one. */
export async function saveNote({
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
    // A later part of a recording joins a note the person may have tagged or pinned already.
    const labels = data.recordingId ? await labelsOfRecording({ userId, recordingId: data.recordingId }) : {};
    const row = await prisma.transcription.create({ data: { userId, idempotencyKey, ...data, ...labels }, include: { optimization: true } });
    // Written once the note exists (from the text it shows: an inline clean-up is done by now);
    // offline it takes milliseconds, and a failure leaves insights null (logged), never the upload.
    const insights = await writeNoteInsights({ userId, id: row.id });
    await emitWebhookEvent({ userId, type: "transcription.completed", subjectId: row.id });
    return { result: { ...presentNote(row), insights }, replayed: false };
  } catch (err) {
    if (idempotencyKey && isUniqueViolation(err)) {
      const first = await findReplay({ userId, idempotencyKey, hash: data.requestHash });
      if (first) return { result: first, replayed: true };
    }
    throw err;
  }
}
