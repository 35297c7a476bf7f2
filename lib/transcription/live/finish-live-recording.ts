import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { db } from "@/lib/db/client.ts";
import { env } from "@/lib/env.ts";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { errorFields, log } from "@/lib/log.ts";
import { hashRequest } from "@/lib/idempotency/request-hash.ts";
import { loadDictionary } from "@/lib/dictionary/store/dictionary-entries.ts";
import { compileDictionary } from "@/lib/dictionary/matcher.ts";
import { chargeAudioSeconds } from "@/lib/rate-limit/audio-budget.ts";
import { audioTooLong } from "@/lib/transcription/audio/decode-audio.ts";
import { cutLivePieces, type LiveRow } from "@/lib/transcription/live/cut-live-pieces.ts";
import { closeCaptions, endCaptionStream } from "@/lib/transcription/live/live-captions.ts";
import { writeLiveAudio } from "@/lib/transcription/live/live-audio-file.ts";
import { encodeLiveAudio, keepLiveAudio } from "@/lib/transcription/live/keep-live-audio.ts";
import { planHearingAgain, queueHearingAgain } from "@/lib/transcription/live/hear-again.ts";
import { waitForPieces } from "@/lib/transcription/recognition/recognize-pieces.ts";
import { completeWaitingPieces } from "@/lib/transcription/recognition/recognize-pieces-job.ts";
import { stitchPieces } from "@/lib/transcription/recognition/stitch-pieces.ts";
import { cleanUpKey } from "@/lib/transcription/recognition/transcribe-audio.ts";
import type { TranscriptionResult } from "@/lib/notes/schemas.ts";
import { getNote } from "@/lib/notes/get-note.ts";
import { noteRecognized, shouldKeepAudio } from "@/lib/notes/note-recognized.ts";
import { setTextImproving } from "@/lib/notes/store/note-writes.ts";

// POST /api/v1/live-recordings/{id}/finish: Stop. The rest of the recording becomes its last
// piece; once every piece is recognized they are joined, in order, into ONE note, which is saved
// like any upload's (clean-up, insights) and answered at once; the recording is kept just after
// (keep-live-audio.ts). Most pieces were recognized while the person spoke, so only the last
// seconds are left. Finishing again answers the same note. Then the whole recording is heard again
// in the background, and its text replaces the live text when the person has not edited it
// (hear-again.ts).

type Finished = { result: TranscriptionResult; replayed: boolean };
const finishing = new Map<string, Promise<Finished>>();

export function finishLiveRecording({ userId, id, signal }: { userId: string; id: string; signal?: AbortSignal }): Promise<Finished> {
  const key = `${userId}/${id}`;
  let run = finishing.get(key);
  if (!run) {
    run = finish(userId, id, signal).finally(() => finishing.delete(key));
    finishing.set(key, run);
  }
  return run;
}

async function finish(userId: string, id: string, signal?: AbortSignal): Promise<Finished> {
  const prisma = await db();
  const phases = phaseClock();
  const reading = prisma.liveRecording.findUnique({ where: { userId_id: { userId, id } } });
  // The stream that captioned the recording hears its last bytes and ends at once, while the
  // recording is read: its words are the rest's text, and its decoder gives the recording's length
  // (cut-live-pieces.ts). Without one, the rest is decoded and recognized in pieces. (It ended
  // after two reads until 2026-11-29: on a busy database, each a wait of its own.) A recording
  // finished already, or none, has no stream.
  const stream = endCaptionStream({ userId, id }, reading.then((r) => r?.bytesReceived ?? Infinity, () => Infinity));
  let row = await reading;
  if (!row) throw notFound(`The live recording ${id}`);
  if (row.status === "done" && row.transcriptionId) return { result: await getNote({ userId, id: row.transcriptionId }), replayed: true };
  if (row.bytesReceived === 0) throw new ApiError("empty_audio", "The live recording holds no audio.");
  row = await reopenIfFailed(row);

  const config = env();
  const dir = await mkdtemp(path.join(tmpdir(), "vd-live-finish-"));
  let dirHandedOver = false;
  try {
    const file = await writeLiveAudio(row, dir);
    // The rest of the recording is cut first: its pieces are what the person waits for, and the
    // cut, from the stream or by decoding the recording to its end, gives its length. (The whole recording was
    // decoded again for it until 2026-11-28: for 5 minutes 1.4 s of a core beside the last
    // pieces.) The recording is compressed to keep once its rest is cut, and kept after the
    // answer: compressing takes time in proportion to the length (5 minutes: 2–3 s of a core),
    // and Stop waited for it until 2026-11-28; begun with the cut, it took from the streams
    // ending beside it (bench:live-load).
    let keeping: ReturnType<typeof encodeLiveAudio> | undefined;
    try {
      const { pieces: count, endSec: durationSec, heard } = await cutLivePieces(row, { final: true, audioFile: file, stream }).finally(() => phases.mark("cut"));
      // When the stream heard the whole recording, the pieces still waiting for a recognizer take
      // its words: on a busy server they could be many (bench:live-load).
      closeCaptions(row);
      if (heard) await completeWaitingPieces(row.workflowId, heard);
      phases.mark("completed");
      if (durationSec > config.MAX_AUDIO_SECONDS) throw audioTooLong(config.MAX_AUDIO_SECONDS);
      if (!count) {
        throw new ApiError("no_speech", "No speech was heard: the recording is silent or holds only noise; nothing could be transcribed. Check the microphone.");
      }
      keeping = shouldKeepAudio(true) ? encodeLiveAudio(file, row.format, dir) : undefined;
      // What joining needs, read while the last pieces are heard: each await here is a turn of
      // a busy server's event loop (bench:live-load).
      const dictionaryRead = loadDictionary(userId);
      const audioHashed = readFile(file).then((bytes) => createHash("sha256").update(bytes).digest("hex"));
      // Awaited below; a failure meanwhile is not unhandled.
      for (const started of [dictionaryRead, audioHashed]) started.catch(() => undefined);
      await prisma.recognitionWorkflow.updateMany({ where: { id: row.workflowId }, data: { piecesTotal: count, durationSec } });
      const pieces = await waitForPieces(row.workflowId, { count, signal });
      phases.mark("waited");
      // Every piece is heard (the last one may have been heard by the stream, not by a job).
      await prisma.recognitionWorkflow.updateMany({ where: { id: row.workflowId, status: "running" }, data: { status: "completed", completedAt: new Date() } });
      phases.mark("heard");

      const entries = await dictionaryRead;
      const dictionary = compileDictionary(entries);
      const stitched = stitchPieces();
      for (const piece of pieces) stitched.add(piece, dictionary);
      const { recognition, corrected } = stitched.result();

      const audioSha256 = await audioHashed;
      const hash = hashRequest({ live_recording: id, audio_sha256: audioSha256 });
      await chargeAudioSeconds({ userId, seconds: durationSec });
      phases.mark("joined");
      const secondPass = planHearingAgain(pieces, recognition.engine);
      // The note's life from here (clean-up, saving, insights, webhooks) is lib/notes'; its
      // recording is kept after the answer (keep-live-audio.ts).
      const saved = await noteRecognized(
        {
          userId,
          // One note per live recording, even when two servers finish it at once.
          idempotencyKey: `live-recording:${id}`,
          data: {
            text: corrected.text,
            rawText: recognition.text,
            language: recognition.language,
            durationSec: Math.round(durationSec * 1000) / 1000,
            engine: recognition.engine,
            segments: corrected.segments,
            dictionaryReplacements: corrected.replacements,
            audioSha256,
            requestHash: hash,
            recordedAt: row.recordedAt ?? undefined,
            audioPendingSince: keeping ? new Date() : undefined,
            textImprovingSince: secondPass ? new Date() : undefined,
          },
        },
        { cleanUpKey: cleanUpKey(hash, entries), requestDictionary: [], durationSec },
      );
      phases.mark("saved");
      // The encoding whose recording is kept: none for a note made already (a Stop answered twice).
      const keep = saved.replayed ? undefined : keeping;
      if (!keep) keeping?.cancel();
      const hearingAgain = secondPass && !saved.replayed;
      // The note is made. Its chunks go now, or once the recording is kept from them and its second pass has heard them.
      await prisma.$transaction([
        prisma.liveRecording.updateMany({ where: { userId, id }, data: { status: "done", transcriptionId: saved.result.id } }),
        ...(keep || hearingAgain ? [] : [prisma.liveRecordingChunk.deleteMany({ where: { userId, recordingId: id } })]),
      ]);
      // The whole recording heard again, behind live work: a job (hear-again.ts).
      if (hearingAgain) {
        await queueHearingAgain({ userId, noteId: saved.result.id }).catch(async (err: unknown) => {
          log.warn("live recording: the second pass could not be queued", { live_recording_id: id, ...errorFields(err) });
          await setTextImproving({ userId, id: saved.result.id, since: null });
        });
      }
      if (keep) {
        dirHandedOver = true;
        void keepLiveAudio({ live: { userId, id }, transcriptionId: saved.result.id, encoding: keep, dir });
      }
      log.info("live recording finished", { live_recording_id: id, pieces: count, duration_sec: durationSec, ...phases.seconds("answered") });
      return saved;
    } catch (err) {
      keeping?.cancel();
      throw err;
    }
  } finally {
    if (!dirHandedOver) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A piece that failed for good (the recognizer broke down) failed the workflow, and its audio is
 * gone; the recording's own audio is not: cut it again from the start.
 */
async function reopenIfFailed<R extends LiveRow>(row: R): Promise<R> {
  const prisma = await db();
  const workflow = await prisma.recognitionWorkflow.findUnique({ where: { id: row.workflowId }, select: { status: true } });
  if (workflow?.status !== "failed") return row;
  await prisma.$transaction([
    prisma.recognitionPiece.deleteMany({ where: { workflowId: row.workflowId } }),
    prisma.recognitionWorkflow.update({ where: { id: row.workflowId }, data: { status: "running", errorCode: null, errorMessage: null, completedAt: null } }),
    prisma.liveRecording.updateMany({ where: { userId: row.userId, id: row.id }, data: { heardUntil: 0, piecesCut: 0 } }),
  ]);
  return { ...row, heardUntil: 0, piecesCut: 0 };
}

/** Seconds from the start of finish to each named moment (logged with each Stop: where its seconds went). */
function phaseClock() {
  const started = performance.now();
  const marks: Record<string, number> = {};
  const mark = (name: string) => void (marks[`${name}_sec`] = Math.round(performance.now() - started) / 1000);
  return { mark, seconds: (last: string) => (mark(last), marks) };
}
