import { stat } from "node:fs/promises";
import path from "node:path";
import { env } from "@/lib/env.ts";
import { loadDictionary } from "@/lib/dictionary/store/dictionary-entries.ts";
import { compileDictionary } from "@/lib/dictionary/matcher.ts";
import { log } from "@/lib/log.ts";
import { db } from "@/lib/db/client.ts";
import { copyKeptAudio } from "@/lib/notes/note-recognized.ts";
import { findOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { detectAudioFileFormat, type AudioFormat } from "@/lib/transcription/audio/audio-format.ts";
import { writeLiveAudio } from "@/lib/transcription/live/live-audio-file.ts";
import { dropLiveChunks } from "@/lib/transcription/live/keep-live-audio.ts";
import { decodeAudio, measureWav } from "@/lib/transcription/audio/decode-audio.ts";
import { analyzeSpeech } from "@/lib/transcription/audio/vad.ts";
import { waitForPieces, type RecognizedPiece } from "@/lib/transcription/recognition/recognize-pieces.ts";
import { speakerMean } from "@/lib/transcription/recognition/speaker-profile.ts";
import { stitchPieces } from "@/lib/transcription/recognition/stitch-pieces.ts";
import { queueSecondPass, recognizeSpan, replaceHeardText, runSecondPass, type HeardAgain } from "@/lib/transcription/recognition/second-passes.ts";
import { recognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";

// The second pass of a live recording. Its pieces were cut while the person spoke, 5–12 s each, and
// a recognizer hears short pieces worse than long ones (bench:live-pieces: PocketSphinx 4.2 points
// of word error rate worse on held-out speech). So the note opens with the live text at Stop, and
// then the whole recording is heard again as an upload of it would be (pieces of up to
// RECOGNITION_PIECE_SECONDS, here joined from the live pieces, which were cut in pauses), behind
// live pieces and uploads (priority.ts: background urgency, the lowest CPU priority). Its text
// replaces the live text if the person has not changed the note since Stop; their dictionary,
// which "in every note from now on" fixes add to, is applied to it again. The clean-up and the
// insights are made again from the new text, and posts still holding the live text follow it
// (follow-improved-note.ts). The note's text_improved_at says it happened ("Text improved").
//
// The pieces Stop filled with the live stream's words (the ones no recognizer had heard yet, and
// the rest after the last cut) hold a caption's lighter search: they are heard again even where
// the rest is kept (hearingPlan).
//
// A durable job (recognition/second-passes.ts): a pass queued at Stop runs after a restart; the
// recording's chunks are kept for it. What the note held before is kept, so the person can put the live text back (Undo).

export { whenHeardAgain, type HeardAgain } from "@/lib/transcription/recognition/second-passes.ts";

type Span = { start: number; end: number };

/**
 * Whether this engine's live text gains from a second pass (SECOND_PASS=auto): PocketSphinx does
 * (bench:live-pieces); whisper reads 30-s windows and loses the words around a short piece, so it
 * is assumed to (the test model here says nothing of accuracy: the plumbing is what its tests
 * show); a remote recognizer (openai) is paid by the minute, so it is not asked twice.
 */
export function secondPassWanted(engine: string): boolean {
  const setting = env().SECOND_PASS;
  if (setting !== "auto") return setting === "on";
  return engine === "pocketsphinx" || engine === "whisper";
}

// Where it helps (bench:live-pieces, PocketSphinx, 60 s of speech, three shifts): speech with pauses
// between its sentences, 42.4% → 39.1% word error rate (the whole file alone: 47.6%); but speech
// with no pause for a minute came out worse heard whole (42.4% → 52.7%): the recognizer loses its
// way in a long utterance, where the live pieces cut it short. So a recording holding a stretch of
// speech longer than LONGEST_UNPAUSED_SECONDS with no pause of PAUSE_SECONDS is heard again in its
// live pieces (hearingPlan; until 2026-11-29 it kept its live text, with the stream's words in it:
// bench:live-pieces, continuous speech, 54.5% against 47.7% for the whole file; now 42.6%).
const LONGEST_UNPAUSED_SECONDS = 20;
const PAUSE_SECONDS = 1;

/** The longest stretch of speech with no pause of `pause` seconds in it (spans: where voice-activity detection heard speech). */
export function longestUnpaused(spans: Span[], pause = PAUSE_SECONDS): number {
  let longest = 0;
  let from: number | undefined;
  let to = 0;
  for (const span of spans) {
    if (from === undefined || span.start - to >= pause) from = span.start;
    to = span.end;
    longest = Math.max(longest, to - from);
  }
  return longest;
}

type HearAgainArgs = {
  userId: string;
  noteId: string;
  /** The recording's whole audio as it arrived (copied: the caller's directory goes soon). */
  file: string;
  format: string;
  /** The live pieces as recognized (recording time), and the text the note was saved with. */
  pieces: RecognizedPiece[];
  liveText: string;
  language?: string;
  prompt?: string;
  durationSec: number;
  requestHash: string;
};

/**
 * What a second pass does, in order: the spans it hears again, and the live pieces it keeps as
 * they are. Speech with pauses is heard as an upload would be (the live pieces joined into
 * `maxSeconds` pieces), and a recognized piece that would be heard again over exactly its own
 * span is kept. Speech without (`unpaused`) is heard again in its live pieces, which hear it
 * better than longer ones: each piece alone, now from where the speaker's voice settled (the first
 * ones were heard before it had: PocketSphinx's cepstral mean), and a piece holding the stream's
 * provisional words (taken at Stop when no recognizer had heard it yet: a caption's lighter
 * search) by the full search.
 */
export function hearingPlan(pieces: RecognizedPiece[], { maxSeconds, unpaused }: { maxSeconds: number; unpaused: boolean }): Hearing[] {
  if (unpaused) {
    // A recognizer that keeps no cepstral mean (whisper) would hear a recognized piece the same again.
    return pieces.map((piece) => (piece.result.provisional || piece.result.cepstralMean ? { hear: { start: piece.start, end: piece.end } } : { keep: piece }));
  }
  const groups: RecognizedPiece[][] = [];
  for (const piece of pieces) {
    const last = groups.at(-1);
    if (last && piece.end - last[0].start <= maxSeconds) last.push(piece);
    else groups.push([piece]);
  }
  return groups.map((group) =>
    group.length === 1 && !group[0].result.provisional ? { keep: group[0] } : { hear: { start: group[0].start, end: group.at(-1)!.end } },
  );
}
type Hearing = { keep: RecognizedPiece } | { hear: Span };

/**
 * Whether a live recording's note is to be heard again (its text_improving_since set at Stop):
 * the engine's live text gains from it (secondPassWanted), and some of its pieces would be heard
 * again (hearingPlan): they are not already an upload's pieces, or hold the stream's words.
 */
export function planHearingAgain(pieces: RecognizedPiece[], engineName: string): boolean {
  if (!secondPassWanted(engineName)) return false;
  return hearingPlan(pieces, { maxSeconds: env().RECOGNITION_PIECE_SECONDS, unpaused: false }).some((step) => "hear" in step);
}

/** Queues the second pass of a live recording's note (its text_improving_since set when saved; its chunks kept for it). */
export async function queueHearingAgain({ userId, noteId }: { userId: string; noteId: string }): Promise<void> {
  await queueSecondPass({ kind: "live", userId, noteId });
}

/**
 * The queued pass (second-pass-job.ts): the recording's audio from its chunks (kept for the pass),
 * else from the note's kept recording; its live pieces as they were recognized. The chunks go after,
 * unless the recording is still to be kept from them (keep-live-audio.ts drops them then).
 */
export async function runHearingLiveAgain({ userId, noteId }: { userId: string; noteId: string }, { lastAttempt }: { lastAttempt: boolean }): Promise<HeardAgain> {
  const note = await findOwnedNote({ userId, id: noteId });
  if (!note?.textImprovingSince) return "skipped";
  const prisma = await db();
  const row = await prisma.liveRecording.findFirst({ where: { userId, transcriptionId: noteId }, select: { userId: true, id: true, format: true, workflowId: true } });
  let file = "";
  const outcome = await runSecondPass({
    userId,
    noteId,
    what: "live recording",
    lastAttempt,
    prepare: async (dir) => {
      if (!row) throw new Error("The note's live recording is gone.");
      file = await writeLiveAudio(row, dir);
      if ((await stat(file)).size > 0) return;
      if (!note.audioStorage || !note.audioBytes) throw new Error("The recording's audio is gone: neither its chunks nor a kept recording are left.");
      await copyKeptAudio({ userId, transcriptionId: noteId }, { storage: note.audioStorage, bytes: note.audioBytes }, file);
    },
    pass: async (dir) => {
      const workflow = await prisma.recognitionWorkflow.findUniqueOrThrow({ where: { id: row!.workflowId }, select: { piecesTotal: true } });
      const pieces = await waitForPieces(row!.workflowId, { count: workflow.piecesTotal ?? 0 });
      const format = (await detectAudioFileFormat(file)) ?? row!.format;
      const args = { userId, noteId, file, format, pieces, liveText: note.text, language: note.language, durationSec: note.durationSec, requestHash: note.requestHash };
      return hearAgain(args, dir);
    },
  });
  // Unless the recording is still being kept from them (keepLiveAudio drops them then).
  const pending = (await findOwnedNote({ userId, id: noteId }, { audioPendingSince: true }))?.audioPendingSince;
  if (row && !pending) await dropLiveChunks(row);
  return outcome;
}

async function hearAgain(args: HearAgainArgs, dir: string): Promise<HeardAgain> {
  const config = env();
  const started = performance.now();
  const audio = await decodeAudio(args.file, path.join(dir, "whole.wav"), {
    ffmpeg: config.FFMPEG_PATH,
    format: args.format as AudioFormat,
    maxSeconds: config.MAX_AUDIO_SECONDS,
    concurrency: config.DECODE_CONCURRENCY,
    maxWaiting: config.DECODE_QUEUE_MAX,
    keepSilent: true,
    urgency: "background",
  });
  const unpausedSec = longestUnpaused((await analyzeSpeech(audio.wavPath, audio.durationSec)).spans);
  const plan = hearingPlan(args.pieces, { maxSeconds: config.RECOGNITION_PIECE_SECONDS, unpaused: unpausedSec > LONGEST_UNPAUSED_SECONDS });
  const heard = plan.filter((step) => "hear" in step).length;
  if (!heard) {
    // Speech without pauses, every piece recognized by an engine that keeps no cepstral mean
    // (whisper): it would hear them the same again.
    log.info("live recording: not heard again (speech without pauses: its live pieces hear it better)", { transcription_id: args.noteId, unpaused_sec: Math.round(unpausedSec) });
    return "skipped";
  }
  const engine = await recognitionEngine();
  // The dictionary as it is now: a spelling taught since Stop counts too.
  const entries = await loadDictionary(args.userId);
  const stitched = stitchPieces();
  const { dataOffset } = await measureWav(audio.wavPath);
  const dictionary = compileDictionary(entries);
  // From where the speaker's voice settled by the end of the live pieces (or in their last note):
  // the live pieces' first seconds were heard before it had.
  let cepstralMean = args.pieces.findLast((piece) => piece.result.cepstralMean)?.result.cepstralMean ?? (await speakerMean(args.userId));
  for (const [index, step] of plan.entries()) {
    const piece = "keep" in step ? step.keep : { start: step.hear.start, end: step.hear.end, result: await recognizeSpan(engine, { ...args, wavPath: audio.wavPath, dataOffset, dir, index, span: step.hear, cepstralMean }) };
    cepstralMean = piece.result.cepstralMean ?? cepstralMean;
    stitched.add({ index, start: piece.start, end: piece.end, result: piece.result }, dictionary);
  }
  const outcome = await replaceHeardText(
    { userId: args.userId, noteId: args.noteId, heardText: args.liveText, requestHash: args.requestHash, durationSec: args.durationSec, language: args.language, pass: "heard-again" },
    stitched.result(),
    entries,
  );
  log.info("live recording: heard again", { transcription_id: args.noteId, outcome, heard, kept: plan.length - heard, seconds: Math.round(performance.now() - started) / 1000 });
  return outcome;
}
