import { followImprovedNote } from "@/lib/posts/generation/follow-improved-note.ts";
import { startUsualPosts } from "@/lib/posts/generation/start-usual-posts.ts";
import { log, errorFields } from "@/lib/log.ts";
import { isUniqueViolation } from "@/lib/db/unique-violation.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { KEY_KINDS, replayOrConflict } from "@/lib/idempotency/key-kinds.ts";
import { writeNoteInsights } from "@/lib/insights/write-note-insights.ts";
import type { Encoding } from "@/lib/note-audio/encode-note-audio.ts";
import { keepNoteAudio } from "@/lib/note-audio/keep-note-audio.ts";
import { presentNote } from "@/lib/notes/present-note.ts";
import { createNote, findNoteByIdempotencyKey, setCleanUp } from "@/lib/notes/store/note-writes.ts";
import type { TranscriptionResult } from "@/lib/notes/schemas.ts";
import { startCleanUp } from "@/lib/clean-up/start-clean-up.ts";
import type { Segment } from "@/lib/segment.ts";
import { labelsOfRecording } from "@/lib/tags/set-note-labels.ts";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event.ts";
import { rekeyWriterOutcomes } from "@/lib/writer/outcomes.ts";

// A note's life after recognition, one step for every way in (an upload, a recording in parts, a
// live recording's Stop, and the second pass's text): lib/transcription hears the recording and
// hands over its text, segments and words; here the note is cleaned up, saved (with the labels of
// its recording), given insights, announced to webhooks, its posts for the person's usual channels
// started, and its audio kept; a text heard again is
// cleaned up anew, given insights again, and followed by its posts.

// The note's audio, as recognition meets it: the quota checked before a recording to keep is
// decoded or appended, its compression started beside recognition, a live recording's kept after
// the answer, a kept one read to be heard again. lib/transcription reaches lib/note-audio only through here.
export { assertAudioQuotaLeft } from "@/lib/note-audio/audio-quota.ts";
export { encodeNoteAudio, type Encoding } from "@/lib/note-audio/encode-note-audio.ts";
export { keepNoteAudio, notPending, shouldKeepAudio } from "@/lib/note-audio/keep-note-audio.ts";
export { copyKeptAudio } from "@/lib/note-audio/audio-store.ts";

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
  const row = await findNoteByIdempotencyKey({ userId, idempotencyKey });
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

type Saved = { result: TranscriptionResult; replayed: boolean };

/** Stores a result; when a concurrent retry with the same key stored first, returns that one. */
export async function saveNote({
  userId,
  idempotencyKey,
  data,
}: {
  userId: string;
  idempotencyKey?: string;
  data: NewTranscription;
}): Promise<Saved> {
  try {
    // A later part of a recording joins a note the person may have tagged or pinned already.
    const labels = data.recordingId ? await labelsOfRecording({ userId, recordingId: data.recordingId }) : {};
    const row = await createNote({ userId, idempotencyKey, ...data, ...labels });
    // Written once the note exists (from the text it shows: an inline clean-up is done by now);
    // offline it takes milliseconds, and a failure leaves insights null (logged), never the upload.
    const insights = await writeNoteInsights({ userId, id: row.id });
    await emitWebhookEvent({ userId, type: "transcription.completed", subjectId: row.id });
    // Then its posts for the person's usual channels; a recording sent in parts is a note a part, and
    // is written for when asked, from the part the person picks.
    if (!data.recordingId) {
      await startUsualPosts({ userId, noteId: row.id }).catch((err: unknown) => log.warn("the usual posts did not start", { transcription_id: row.id, ...errorFields(err) }));
    }
    return { result: { ...presentNote(row), insights }, replayed: false };
  } catch (err) {
    if (idempotencyKey && isUniqueViolation(err)) {
      const first = await findReplay({ userId, idempotencyKey, hash: data.requestHash });
      if (first) return { result: first, replayed: true };
    }
    throw err;
  }
}

/** How the note came: what its clean-up is named by and may use, and the audio being compressed to keep with it. */
export type Recognized = {
  /** The clean-up workflow's identity (cleanUpKey: the request and the dictionary it was corrected with). */
  cleanUpKey: string;
  /** Dictionary entries sent with the request (none for a live recording). */
  requestDictionary: { misspelling: string; correctSpelling: string }[];
  /** The recording's length as decoded (the note stores it rounded to milliseconds). */
  durationSec: number;
  /** An upload's audio being compressed, kept once the note is made (a live recording's is kept after the answer). */
  keeping?: Encoding;
};

/**
 * A recognized recording becomes its note: the clean-up starts (inline or as a job), the note is
 * saved (labels, insights, transcription.completed), then an upload's audio is kept with it.
 * A retried request with the same key answers the note made first, and keeps no audio again.
 */
export async function noteRecognized(
  { userId, idempotencyKey, data }: { userId: string; idempotencyKey?: string; data: Omit<NewTranscription, "optimizationId"> },
  how: Recognized,
): Promise<Saved> {
  const optimizationId = await startCleanUp({
    userId,
    requestHash: how.cleanUpKey,
    transcript: { text: data.text, segments: data.segments },
    requestDictionary: how.requestDictionary,
    durationSec: how.durationSec,
    language: data.language,
  });
  const saved = await saveNote({ userId, idempotencyKey, data: { ...data, optimizationId } });
  // An inline clean-up ran before the note was saved: the writer's outcome of it is this note's.
  if (optimizationId) rekeyWriterOutcomes(optimizationId, saved.result.id);
  if (how.keeping && !saved.replayed) {
    const kept = await keepNoteAudio({ userId, transcriptionId: saved.result.id, encoding: how.keeping });
    if (kept) saved.result.audio = kept;
  }
  return saved;
}

/** transcription.failed: the recording could not be made a note (its error code; never its audio). */
export async function noteNotRecognized({ userId, recordingId, err }: { userId: string; recordingId: string | undefined; err: unknown }): Promise<void> {
  const code = err instanceof ApiError ? err.code : "internal_error";
  await emitWebhookEvent({ userId, type: "transcription.failed", subjectId: recordingId ?? null, detail: code });
}

/**
 * The second pass replaced the note's text: the clean-up of the new text (a new workflow: its
 * request hash names the new text), then the insights from it, then the posts that still hold
 * the live text.
 */
export async function noteTextImproved({
  userId,
  noteId,
  cleanUpKey,
  text,
  segments,
  durationSec,
  language,
}: {
  userId: string;
  noteId: string;
  cleanUpKey: string;
  text: string;
  segments: Segment[];
  durationSec: number;
  language?: string;
}): Promise<void> {
  const optimizationId = await startCleanUp({
    userId,
    requestHash: cleanUpKey,
    transcript: { text, segments },
    requestDictionary: [],
    durationSec,
    language,
  });
  if (optimizationId) await setCleanUp({ userId, id: noteId, optimizationId });
  await writeNoteInsights({ userId, id: noteId });
  await followImprovedNote({ userId, noteId });
}

/**
 * The text from before the recording was heard again is back (Undo), with the clean-up it had
 * (store/note-writes.ts undoImprovedText): its insights and the posts that followed the heard text
 * follow it back. A clean-up that is gone since (or never was) is made again.
 */
export async function noteTextRestored({
  userId,
  noteId,
  requestHash,
  text,
  segments,
  durationSec,
  language,
  hadCleanUp,
}: {
  userId: string;
  noteId: string;
  requestHash: string;
  text: string;
  segments: Segment[];
  durationSec: number;
  language?: string;
  hadCleanUp: boolean;
}): Promise<void> {
  if (!hadCleanUp) {
    const optimizationId = await startCleanUp({ userId, requestHash: `${requestHash}:restored`, transcript: { text, segments }, requestDictionary: [], durationSec, language });
    if (optimizationId) await setCleanUp({ userId, id: noteId, optimizationId });
  }
  await writeNoteInsights({ userId, id: noteId });
  await followImprovedNote({ userId, noteId });
}
