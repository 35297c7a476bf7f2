import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { db } from "@/lib/db/client.ts";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { errorFields, log } from "@/lib/log.ts";
import type { AudioFormat } from "@/lib/transcription/audio/audio-format.ts";
import { decodeAudio, isSilent, measureWav } from "@/lib/transcription/audio/decode-audio.ts";
import type { PlanOptions } from "@/lib/transcription/audio/plan-pieces.ts";
import { analyzeSpeech } from "@/lib/transcription/audio/vad.ts";
import { writeLiveAudio } from "@/lib/transcription/live/live-audio-file.ts";
import type { StreamHeard } from "@/lib/transcription/live/live-captions.ts";
import { pieceWav } from "@/lib/transcription/recognition/recognize-pieces-audio.ts";
import { dispatch } from "@/lib/transcription/recognition/recognize-pieces.ts";
import { pieceResult, runPiece } from "@/lib/transcription/recognition/recognize-pieces-job.ts";
import type { Recognition } from "@/lib/transcription/recognizers/types.ts";
import type { Prisma } from "@/lib/db/generated/client.ts";

// The server's side of recognizing while the person speaks: each time audio arrives, the part of
// the recording not yet heard is decoded (only from `heardUntil` on, so a step costs about one
// piece however long the recording is), voice-activity detection finds the pauses, and every
// piece that ends in a pause becomes a recognition piece at once. The piece still being spoken
// waits for more audio, or for `final` (Stop). A pause that closes it is treated as a Stop that
// may come: the stretch it closes is shared out among the recognizers as Stop's rest would be.

/** Live pieces: a few seconds of speech, cut in a pause (a single span longer than max is cut at its quietest). */
export const LIVE_PIECE = { minSeconds: 5, maxSeconds: 12, firstMinSeconds: 5, firstMaxSeconds: 12, maxSilenceSeconds: 2.5 };
/**
 * The shortest pieces the rest at Stop is cut into (finalPieceLengths shares it out above these):
 * shorter pieces are heard less well (bench:live-pieces: 3–7 s pieces throughout cost 25–40 points
 * of word error rate), so only the last seconds pay for it.
 */
const FINAL_PIECE = { minSeconds: 2.5, maxSeconds: 6, firstMinSeconds: 2.5, firstMaxSeconds: 6, maxSilenceSeconds: 2.5 };

/**
 * The pieces of the rest at Stop (or at a pause that closes it): as many as there are
 * recognizers side by side, when the rest is long enough, so that they are heard in one round.
 * Each recognition also pays a fixed start (PocketSphinx loads its model: 0.9 s here), so 14 s in
 * three pieces took two rounds (about 5 s) where two pieces take one (about 3.4 s). Never longer
 * than a live piece.
 */
export function finalPieceLengths(restSeconds: number, recognizers: number): PlanOptions {
  // A share each, give or take a phrase: the cut goes in the widest pause within these bounds.
  const share = restSeconds / Math.max(1, recognizers);
  const maxSeconds = Math.min(LIVE_PIECE.maxSeconds, Math.max(FINAL_PIECE.maxSeconds, share + 2));
  const minSeconds = Math.min(maxSeconds, Math.max(FINAL_PIECE.minSeconds, share - 1.5));
  return { ...FINAL_PIECE, minSeconds, maxSeconds, firstMinSeconds: minSeconds, firstMaxSeconds: maxSeconds, longSpanFactor: 1 };
}
/** A pause this long after the last speech closes the piece before it, without waiting for more speech. */
const PAUSE_CLOSES_SECONDS = 0.8;

export type LiveRow = { userId: string; id: string; format: string; heardUntil: number; piecesCut: number; workflowId: string };
/**
 * What a cut leaves: how many pieces the recording has, and where its audio ended when the cut
 * read it (seconds). After Stop's cut that is the recording's length, so finish need not decode
 * the whole recording again for it (5 minutes: 1.4 s of a core, beside the last pieces). `heard`:
 * what the stream recognizer heard of the whole recording, when Stop's cut took the rest from it.
 */
export type LiveCut = { pieces: number; endSec: number; heard?: StreamHeard };

// One cut at a time per recording in this process; a request that finds one running waits for it
// (the database's conditional update keeps two processes from cutting the same seconds twice).
// At most one waits: it reads the recording when it starts, so it also cuts what later requests
// brought, and they share it. Stop's cut takes the place of one still waiting, and stops the one
// running (it would only cut seconds Stop's cut takes anyway), so Stop waits for no queue of them
// (each decodes the rest again: 0.4 s here, seconds on a busy server).
const cutting = new Map<string, Promise<LiveCut>>();
type CutOptions = {
  final?: boolean;
  /** The recording's whole audio, already written (finish has it): not read again. */
  audioFile?: string;
  /** Stop: what the recording's stream heard (live-captions.ts, endCaptionStream), once it has ended. */
  stream?: Promise<{ heard: StreamHeard; untilSec: number } | null>;
};
const waiting = new Map<string, CutOptions & { next: Promise<LiveCut> }>();
/** The running cut of each recording, which Stop's cut stops (it cuts the same seconds, from the stream's words or to the end). */
const running = new Map<string, AbortController>();

/**
 * Cuts the pieces that are ready (all that is left when `final`) and queues them; resolves with
 * how many pieces the recording has. A cut that fails (audio cut off mid-block, the decoder
 * busy) is logged and tried again with the next audio; with `final` it throws.
 */
export function cutLivePieces(row: LiveRow, options: CutOptions = {}): Promise<LiveCut> {
  const key = `${row.userId}/${row.id}`;
  const final = options.final ?? false;
  let queued = waiting.get(key);
  if (queued && final && !queued.final) Object.assign(queued, options);
  // Stop does not wait for a cut of the audio before it: it would store pieces of the seconds
  // Stop's cut takes whole (on a busy server, a cut took seconds: bench:live-load).
  if (final) running.get(key)?.abort(new StoppedCut());
  if (!queued) {
    const entry = { ...options, next: Promise.resolve<LiveCut>({ pieces: 0, endSec: 0 }) };
    entry.next = (cutting.get(key) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        waiting.delete(key); // started: a request from now on waits for this one
        const stop = new AbortController();
        running.set(key, stop);
        try {
          const prisma = await db();
          const fresh = await prisma.liveRecording.findUnique({ where: { userId_id: { userId: row.userId, id: row.id } } });
          if (!fresh) throw new ApiError("not_found", `The live recording ${row.id} was not found.`);
          return await cut(fresh, entry, entry.final ? undefined : stop.signal);
        } catch (err) {
          // Its decoder killed, or its turn given up: stopped, not failed.
          throw stop.signal.aborted ? stop.signal.reason : err;
        } finally {
          if (running.get(key) === stop) running.delete(key);
        }
      });
    const next = entry.next;
    waiting.set(key, entry);
    cutting.set(key, next);
    void next.finally(() => cutting.get(key) === next && cutting.delete(key)).catch(() => undefined);
    queued = entry;
  }
  const { next } = queued;
  if (!final) {
    return next.catch((err) => {
      if (!(err instanceof StoppedCut)) log.warn("live recording: cutting failed; tried again with more audio", { recording_id: row.id, ...errorFields(err) });
      return { pieces: row.piecesCut, endSec: row.heardUntil };
    });
  }
  return next;
}

/** Stop came while this cut ran: Stop's cut takes its seconds. */
class StoppedCut extends Error {
  constructor() {
    super("Stop came; its cut takes these seconds");
  }
}

async function cut(row: LiveRow, { final = false, audioFile, stream }: CutOptions, signal?: AbortSignal): Promise<LiveCut> {
  const config = env();
  const from = row.heardUntil;
  // Stop, and the stream heard every byte: the rest is its words, and the recording's length is
  // what its decoder decoded of the same bytes. Nothing is decoded again: on a busy server that
  // decode waited its turn among the other recordings' cuts (bench:live-load).
  const ended = await stream;
  if (ended && ended.untilSec >= from) {
    const endSec = round(ended.untilSec);
    const noneCut = { pieces: row.piecesCut, endSec };
    const rest = ended.heard(from);
    const cut = rest.text ? await store(row, { heard: [{ start: 0, end: endSec - from, recognition: rest }], fromSec: from, heardUntil: endSec }, noneCut) : noneCut;
    return { ...cut, heard: ended.heard };
  }
  if (ended) log.warn("live recording: the stream heard less than the pieces; the rest is recognized in pieces", { recording_id: row.id, stream_sec: ended.untilSec, heard_until_sec: from });
  const dir = await mkdtemp(path.join(tmpdir(), "vd-live-"));
  try {
    const file = audioFile ?? (await writeLiveAudio(row, dir));
    signal?.throwIfAborted();
    let decoded;
    try {
      decoded = await decodeAudio(file, path.join(dir, "rest.wav"), {
        ffmpeg: config.FFMPEG_PATH,
        format: row.format as AudioFormat,
        maxSeconds: config.MAX_AUDIO_SECONDS,
        concurrency: config.DECODE_CONCURRENCY,
        maxWaiting: config.DECODE_QUEUE_MAX,
        startSec: from,
        keepSilent: true,
        // Stop may wait for it (on a busy server, a cut at the pieces' priority held Stop 22–29 s:
        // bench:live-load); Stop's cut stops it when the stream heard the recording.
        urgency: "realtime",
        signal,
      });
    } catch (err) {
      // Nothing after heardUntil yet: no piece to cut.
      if (err instanceof ApiError && err.code === "empty_audio") return { pieces: row.piecesCut, endSec: from };
      throw err;
    }
    const { dataOffset } = await measureWav(decoded.wavPath);
    const noneCut = { pieces: row.piecesCut, endSec: round(from + decoded.durationSec) };
    // Only silence since heardUntil: no piece to cut, but its seconds are the recording's.
    if (isSilent(decoded)) return noneCut;
    const atStop = finalPieceLengths(decoded.durationSec, config.RECOGNIZERS_PER_PROCESS);
    let speech;
    try {
      // Every piece the same length, the first too: a first piece cut sooner for an earlier
      // caption was heard badly (a few words alone), and the note kept its errors.
      signal?.throwIfAborted();
      speech = await analyzeSpeech(decoded.wavPath, decoded.durationSec, final ? atStop : LIVE_PIECE);
    } catch (err) {
      if (err instanceof ApiError && err.code === "no_speech") return noneCut;
      throw err;
    }
    // The last piece may still be going on, unless the person paused after it (or stopped). A
    // short one waits for what follows: a few words alone are recognized badly.
    const last = speech.pieces.at(-1);
    const closed =
      final || (last !== undefined && decoded.durationSec - last.end >= PAUSE_CLOSES_SECONDS - 0.2 && last.end - last.start >= LIVE_PIECE.minSeconds);
    // A pause closed the piece being spoken, and the person may be about to stop: the rest is cut
    // as Stop would cut it, shared out among the recognizers side by side, so that a Stop now waits
    // for one round of shorter pieces, not for one long piece on one core. (bench:live-pieces:
    // heard as well or better, 33.2% → 30.0% word error rate with pauses.)
    const pieces = closed && !final ? speech.plan(atStop) : speech.pieces;
    const ready = closed ? pieces : pieces.slice(0, -1);
    if (!ready.length) return noneCut;
    const heardUntil = round(from + (closed ? Math.max(ready.at(-1)!.end, decoded.durationSec - (final ? 0 : 0.3)) : pieces.at(-1)!.start));
    signal?.throwIfAborted();
    return await store(row, { toRecognize: ready, wavPath: decoded.wavPath, dataOffset, fromSec: from, heardUntil }, noneCut);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * What a cut stores, from the seconds it started at (`fromSec`; its pieces' times are from there):
 * pieces the stream recognizer has heard already, stored recognized (their words provisional),
 * or pieces still to recognize, cut from the decoded rest (`wavPath`, its samples from `dataOffset`).
 */
type Cut = { fromSec: number; heardUntil: number } & (
  | { heard: { start: number; end: number; recognition: Recognition }[] }
  | { toRecognize: { start: number; end: number }[]; wavPath: string; dataOffset: number }
);

/** Stores a cut's pieces, and sends those still to recognize to the recognizers. */
async function store(row: LiveRow, cut: Cut, noneCut: LiveCut): Promise<LiveCut> {
  const prisma = await db();
  const pieces = "heard" in cut ? cut.heard : cut.toRecognize;
  const stored = await prisma.$transaction(async (tx) => {
    // Only from the seconds this cut started at: a concurrent cut elsewhere stored them first.
    const claimed = await tx.liveRecording.updateMany({
      where: { userId: row.userId, id: row.id, heardUntil: row.heardUntil, piecesCut: row.piecesCut },
      data: { heardUntil: cut.heardUntil, piecesCut: row.piecesCut + pieces.length },
    });
    if (!claimed.count) return null;
    for (const [i, piece] of pieces.entries()) {
      const where = { workflowId: row.workflowId, index: row.piecesCut + i, startSec: round(cut.fromSec + piece.start), endSec: round(cut.fromSec + piece.end) };
      const data =
        "heard" in cut
          ? { ...where, status: "completed", result: pieceResult(cut.heard[i].recognition, { provisional: true }) as Prisma.InputJsonValue, completedAt: new Date() }
          : { ...where, status: "pending", audio: new Uint8Array(await pieceWav(cut.wavPath, cut.dataOffset, piece)) };
      await tx.recognitionPiece.create({ data, select: { index: true } });
    }
    return row.piecesCut + pieces.length;
  });
  if (stored === null) {
    const now = await prisma.liveRecording.findUniqueOrThrow({ where: { userId_id: { userId: row.userId, id: row.id } } });
    return { ...noneCut, pieces: now.piecesCut };
  }
  if ("toRecognize" in cut) {
    for (const i of cut.toRecognize.keys()) {
      const index = row.piecesCut + i;
      // Queued for durability (a restart, another process), and started here at once: the job
      // queue polls every few seconds, and a caption that late is no longer live.
      await dispatch(row.workflowId, index);
      // First in the recognizers' queue: the person is speaking (priority.ts).
      void runPiece({ workflowId: row.workflowId, index, final: false, urgency: "live" }).catch(() => undefined);
    }
  }
  return { ...noneCut, pieces: stored };
}

/** What a phone's recorder writes, and ffmpeg can read while it is still growing. */
export const LIVE_FORMATS: ReadonlySet<AudioFormat> = new Set(["webm", "ogg", "mp4", "wav"]);

const round = (s: number) => Math.round(s * 1000) / 1000;
