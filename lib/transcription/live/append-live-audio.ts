import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { isUniqueViolation } from "@/lib/db/unique-violation.ts";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { hashRequest } from "@/lib/idempotency/request-hash.ts";
import { loadDictionary } from "@/lib/dictionary/store/dictionary-entries.ts";
import { assertAudioBudgetLeft } from "@/lib/rate-limit/audio-budget.ts";
import { detectAudioFormat, SUPPORTED_FORMATS_TEXT, type AudioFormat } from "@/lib/transcription/audio/audio-format.ts";
import { assertAudioQuotaLeft } from "@/lib/notes/note-recognized.ts";
import { assertLiveBytesAreAudio, type LiveBytesOf } from "@/lib/transcription/live/check-live-bytes.ts";
import { cutLivePieces, LIVE_FORMATS, LIVE_PIECE, type LiveRow } from "@/lib/transcription/live/cut-live-pieces.ts";
import { hearForCaptions, takeStreamProgress, whenPhraseHeard } from "@/lib/transcription/live/live-captions.ts";
import { getLiveRecording } from "@/lib/transcription/live/get-live-recording.ts";
import { assertLiveRecordingSlot } from "@/lib/transcription/live/open-live-recordings.ts";
import { assertLanguageSupported, engineCall, recognizerPrompt } from "@/lib/transcription/recognition/transcribe-audio.ts";
import { userLanguage } from "@/lib/transcription/recognition/user-language.ts";
import { recognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import type { LiveRecording } from "@/lib/transcription/schemas.ts";

// PATCH /api/v1/live-recordings/{id}: the next bytes of a recording still being made. Appends are
// by byte offset, so a retried or repeated body is taken once: bytes the server already holds are
// skipped, and a body that starts past them is refused with the offset to send from. New bytes are
// kept only when they are audio (check-live-bytes.ts) and fit in the account's audio quota; the
// first ones only while the account has fewer than LIVE_RECORDINGS_OPEN_MAX recordings open.

type AppendArgs = {
  userId: string;
  id: string;
  offset: number;
  bytes: Uint8Array;
  mimeType: string;
  recordedAt?: string;
};

export async function appendLiveAudio({ userId, id, offset, bytes, mimeType, recordedAt }: AppendArgs): Promise<{ recording: LiveRecording; created: boolean }> {
  const prisma = await db();
  let row = await prisma.liveRecording.findUnique({ where: { userId_id: { userId, id } } });
  let created = false;
  if (!row) {
    if (offset !== 0) throw offsetMismatch(0, offset);
    row = await createLiveRecording({ userId, id, bytes, mimeType, recordedAt });
    created = row.bytesReceived === 0;
  }
  if (offset > row.bytesReceived) throw offsetMismatch(row.bytesReceived, offset);
  const fresh = bytes.subarray(Math.min(bytes.length, row.bytesReceived - offset));
  if (fresh.length && row.status !== "recording") {
    throw new ApiError("recording_finished", `The live recording ${id} is finished; it takes no more audio.`);
  }
  if (fresh.length) {
    const total = row.bytesReceived + fresh.length;
    if (total > env().MAX_UPLOAD_BYTES) {
      throw new ApiError("payload_too_large", `A recording may hold at most ${env().MAX_UPLOAD_BYTES} bytes.`);
    }
    // Checked before the recording was created, when these are its first bytes.
    if (!created) await assertFreshBytesFit(row, fresh);
    const stored = await prisma.$transaction(async (tx) => {
      const moved = await tx.liveRecording.updateMany({
        where: { userId, id, bytesReceived: row.bytesReceived, status: "recording" },
        data: { bytesReceived: total },
      });
      if (!moved.count) return false;
      await tx.liveRecordingChunk.create({ data: { userId, recordingId: id, offset: row.bytesReceived, data: new Uint8Array(fresh) }, select: { offset: true } });
      return true;
    });
    // Another request appended at the same offset first: this one's bytes may differ, so resend from the new end.
    if (!stored) {
      const now = await prisma.liveRecording.findUniqueOrThrow({ where: { userId_id: { userId, id } }, select: { bytesReceived: true } });
      throw offsetMismatch(now.bytesReceived, offset);
    }
    // The stream recognizer hears them at once (live-captions.ts). The pieces are cut after; not
    // awaited: the phone's next second of audio should not wait for the recognizer. The answer
    // carries the captions so far.
    hearForCaptions(row, row.bytesReceived, fresh);
    cutWhenReady(row);
  }
  return { recording: await getLiveRecording({ userId, id }), created };
}

/**
 * Cuts the pieces ready after this PATCH. While a stream hears the recording, a piece can close
 * only in a pause, which the stream hears as a phrase's end: the next PATCH cuts after one (its
 * bytes carry more of that pause), or, when none comes within PHRASE_CUT_MS (the phone sent its
 * backlog at once, or went quiet), the phrase's own timer does; and a PATCH cuts when a stretch as
 * long as a live piece has passed with no phrase end (a piece is then cut at its quietest). Cutting
 * at every PATCH (decoding the rest and running voice-activity detection on it) would be about 20
 * cuts a minute for 5–8 pieces; with three people recording, that takes the CPU their streams need
 * (bench:live-load). Without a stream, every PATCH cuts.
 */
function cutWhenReady(row: LiveRow & { bytesReceived: number }): void {
  if (row.bytesReceived === 0) {
    whenPhraseHeard(row, () => {
      const timer = setTimeout(() => {
        if (takeStreamProgress(row)?.phraseEnded) void cutLivePieces(row);
      }, PHRASE_CUT_MS);
      timer.unref?.();
    });
  }
  const stream = takeStreamProgress(row);
  if (!stream || stream.phraseEnded || stream.decodedSeconds - row.heardUntil >= LIVE_PIECE.maxSeconds) void cutLivePieces(row);
}
const PHRASE_CUT_MS = 1000;

function liveFormatOf(bytes: Uint8Array): AudioFormat {
  if (!bytes.length) throw new ApiError("empty_audio", "The first part of a live recording is empty (0 bytes).");
  const format = detectAudioFormat(bytes);
  if (!format || !LIVE_FORMATS.has(format)) {
    throw new ApiError("unsupported_audio", `A live recording must be WebM/Opus, Ogg/Opus, MP4/AAC or WAV as a recorder writes it (any file: POST /transcribe, ${SUPPORTED_FORMATS_TEXT}).`);
  }
  return format;
}

/** New bytes are kept only within the account's audio quota, and only when they are audio. */
async function assertFreshBytesFit(recording: LiveBytesOf, fresh: Uint8Array): Promise<void> {
  await assertAudioQuotaLeft({ userId: recording.userId, adding: fresh.length });
  await assertLiveBytesAreAudio({ recording, fresh });
}

/** A new live recording, holding no bytes yet: `bytes` (its first) are checked, then appended by the caller. */
async function createLiveRecording({ userId, id, bytes, mimeType, recordedAt }: Omit<AppendArgs, "offset">) {
  const format = liveFormatOf(bytes);
  await assertAudioBudgetLeft(userId);
  const language = await userLanguage(userId);
  const engine = await engineCall(recognitionEngine);
  await assertLanguageSupported(engine, language);
  const prisma = await db();
  // Counted first without holding the lock (cheap), so a burst is refused before its audio is probed.
  await assertLiveRecordingSlot(prisma, userId);
  await assertFreshBytesFit({ userId, id, format, bytesReceived: 0, heardUntil: 0 }, bytes);
  const prompt = recognizerPrompt(undefined, await loadDictionary(userId));
  return oneAtATime(userId, async () => {
    // Its turn: the same first part sent twice at once was created by the other; the rest of a
    // burst is refused here, counted again.
    const created = await prisma.liveRecording.findUnique({ where: { userId_id: { userId, id } } });
    if (created) return created;
    await assertLiveRecordingSlot(prisma, userId);
    return insertLiveRecording({ userId, id, mimeType, recordedAt, format, language, prompt });
  });
}

async function insertLiveRecording({ userId, id, mimeType, recordedAt, format, language, prompt }: Omit<AppendArgs, "offset" | "bytes"> & { format: AudioFormat; language: string | undefined; prompt: string | undefined }) {
  const prisma = await db();
  try {
    return await prisma.$transaction(async (tx) => {
      // One create at a time per account, so a burst is counted one by one.
      await tx.$executeRaw`SELECT 1 FROM "users" WHERE "id" = ${userId} FOR UPDATE`;
      // Sent twice at once: the other request created it while this one waited for the lock.
      const created = await tx.liveRecording.findUnique({ where: { userId_id: { userId, id } } });
      if (created) return created;
      await assertLiveRecordingSlot(tx, userId);
      const workflow = await tx.recognitionWorkflow.create({
        // piecesTotal is known at finish; until then the workflow stays running.
        data: { userId, requestHash: hashRequest({ live_recording: id }), status: "running", piecesTotal: 0, durationSec: 0, prompt, language },
        select: { id: true },
      });
      return tx.liveRecording.create({
        data: { userId, id, status: "recording", mimeType: mimeType.slice(0, 100), format, workflowId: workflow.id, recordedAt: recordedAt ? new Date(recordedAt) : new Date() },
      });
    }, TRANSACTION_OPTIONS);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // The same first part sent twice at once: the other request created it.
    return prisma.liveRecording.findUniqueOrThrow({ where: { userId_id: { userId, id } } });
  }
}

// One create at a time per account in this process: a burst waits here and is counted one by
// one, instead of queueing its transactions for the account's lock (200 at once on PGlite, which
// has one connection: they timed out waiting, 503). The lock in the transaction still counts
// creates from other processes.
const creating = new Map<string, Promise<unknown>>();
function oneAtATime<T>(userId: string, work: () => Promise<T>): Promise<T> {
  const run = (creating.get(userId) ?? Promise.resolve()).catch(() => undefined).then(work);
  const settled = run.catch(() => undefined);
  creating.set(userId, settled);
  void settled.then(() => creating.get(userId) === settled && creating.delete(userId));
  return run;
}

const offsetMismatch = (bytesReceived: number, offset: number) =>
  new ApiError("offset_mismatch", `The server holds ${bytesReceived} bytes of this recording; send from offset ${bytesReceived}, not ${offset}.`, {
    details: [{ path: "offset", message: `expected ≤ ${bytesReceived}` }],
  });
