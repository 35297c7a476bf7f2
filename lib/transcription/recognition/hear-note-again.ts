import path from "node:path";
import { env } from "@/lib/env.ts";
import { loadDictionary } from "@/lib/dictionary/store/dictionary-entries.ts";
import { compileDictionary } from "@/lib/dictionary/matcher.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { log } from "@/lib/log.ts";
import { copyKeptAudio } from "@/lib/notes/note-recognized.ts";
import { IMPROVING_AT_MOST_MS, presentNote } from "@/lib/notes/present-note.ts";
import { findOwnedNote, getOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { claimHearingAgain } from "@/lib/notes/store/note-writes.ts";
import type { TranscriptionResult } from "@/lib/notes/schemas.ts";
import { detectAudioFileFormat } from "@/lib/transcription/audio/audio-format.ts";
import { decodeAudio, measureWav } from "@/lib/transcription/audio/decode-audio.ts";
import { analyzeSpeech } from "@/lib/transcription/audio/vad.ts";
import { queueSecondPass, recognizeSpan, replaceHeardText, runSecondPass, type HeardAgain } from "@/lib/transcription/recognition/second-passes.ts";
import { stitchPieces } from "@/lib/transcription/recognition/stitch-pieces.ts";
import { assertLanguageSupported, engineCall, pieceLengths } from "@/lib/transcription/recognition/transcribe-audio.ts";
import { assertAudioBudgetLeft, chargeAudioSeconds } from "@/lib/rate-limit/audio-budget.ts";
import { recognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import type { RecognitionEngine } from "@/lib/transcription/recognizers/types.ts";

// An older note heard again on request (POST /api/v1/transcriptions/{id}/hear-again): a note the
// basic recognizer (PocketSphinx) heard, once the accurate one (whisper, or an OpenAI-compatible
// server) has arrived. Its kept recording is read from the audio store, decoded, cut in pauses as
// an upload is, and heard by the recognizer the server has now, in the background behind live
// pieces and uploads; the person's dictionary as it is now corrects it. The new text replaces the
// note's only if the person has not edited it meanwhile, and what it held is kept: Undo
// (POST …/hear-again/undo, a note action: lib/notes/undo-hearing-again.ts) puts it back.
//
// A durable job (second-passes.ts): a pass accepted before a restart runs after it.

/** Recognizers that hear better than PocketSphinx: a note it heard is worth hearing again with one of these. */
const ACCURATE = new Set<RecognitionEngine["name"]>(["whisper", "openai"]);

/** Starts hearing the note's kept recording again with the recognizer this server has now: the note, text_improving. */
export async function hearNoteAgain({ userId, id }: { userId: string; id: string }): Promise<TranscriptionResult> {
  const note = await getOwnedNote({ userId, id });
  if (!note.audioStorage || !note.audioBytes) {
    throw new ApiError("no_audio_kept", "This note's recording was not kept, so it cannot be heard again.");
  }
  if (note.editedAt) {
    throw new ApiError("note_edited", "You have edited this note: hearing its recording again would replace your text, so it is not done.");
  }
  const engine = await engineCall(recognitionEngine);
  if (!ACCURATE.has(engine.name) || engine.name === note.engine) {
    throw new ApiError(
      "no_better_recognizer",
      `This note was heard by ${label(note.engine)}, and this server's recognizer now is ${label(engine.name)}: hearing it again would not improve its words.`,
    );
  }
  await assertLanguageSupported(engine, note.language);
  await assertAudioBudgetLeft(userId);
  const staleBefore = new Date(Date.now() - IMPROVING_AT_MOST_MS);
  if (!(await claimHearingAgain({ userId, id, staleBefore }))) {
    throw new ApiError("already_improving", "This note is being heard again already; read it again in a few seconds.");
  }
  // Heard again costs what an upload of it would: its seconds count against the day's audio budget.
  await chargeAudioSeconds({ userId, seconds: note.durationSec });
  await queueSecondPass({ kind: "note", userId, noteId: id });
  return presentNote(await getOwnedNote({ userId, id }));
}

/** The queued pass (live/second-pass-job.ts): the note's kept recording heard by the recognizer the server has now. */
export async function runHearingNoteAgain({ userId, noteId }: { userId: string; noteId: string }, { lastAttempt }: { lastAttempt: boolean }): Promise<HeardAgain> {
  const note = await findOwnedNote({ userId, id: noteId });
  if (!note?.textImprovingSince) return "skipped";
  const recording = (dir: string) => path.join(dir, "recording");
  const heard = { userId, noteId, heardText: note.text, requestHash: note.requestHash, durationSec: note.durationSec, language: note.language };
  return runSecondPass({
    userId,
    noteId,
    what: "note heard again",
    lastAttempt,
    prepare: async (dir) => {
      if (!note.audioStorage || !note.audioBytes) throw new ApiError("no_audio_kept", "This note's recording is no longer kept.");
      await copyKeptAudio({ userId, transcriptionId: noteId }, { storage: note.audioStorage, bytes: note.audioBytes }, recording(dir));
    },
    pass: async (dir) => hearRecording({ ...heard, file: recording(dir), engine: await engineCall(recognitionEngine) }, dir),
  });
}

async function hearRecording(
  note: { userId: string; noteId: string; heardText: string; requestHash: string; durationSec: number; language: string; file: string; engine: RecognitionEngine },
  dir: string,
): Promise<HeardAgain> {
  const config = env();
  const started = performance.now();
  const format = (await detectAudioFileFormat(note.file)) ?? "webm";
  const audio = await decodeAudio(note.file, path.join(dir, "whole.wav"), {
    ffmpeg: config.FFMPEG_PATH,
    format,
    maxSeconds: config.MAX_AUDIO_SECONDS,
    concurrency: config.DECODE_CONCURRENCY,
    maxWaiting: config.DECODE_QUEUE_MAX,
    keepSilent: true,
    urgency: "background",
  });
  const { pieces } = await analyzeSpeech(audio.wavPath, audio.durationSec, pieceLengths(config.RECOGNITION_PIECE_SECONDS));
  // The dictionary as it is now: a spelling taught since the note was made counts too.
  const entries = await loadDictionary(note.userId);
  const dictionary = compileDictionary(entries);
  const stitched = stitchPieces();
  const { dataOffset } = await measureWav(audio.wavPath);
  // The language the note was heard in ("en" from a recognizer that detects none is a guess too).
  const language = note.language || undefined;
  for (const [index, span] of pieces.entries()) {
    const result = await recognizeSpan(note.engine, { wavPath: audio.wavPath, dataOffset, dir, index, span, language });
    stitched.add({ index, start: span.start, end: span.end, result }, dictionary);
  }
  const outcome = await replaceHeardText({ ...note, language, pass: `heard-again-by-${note.engine.name}` }, stitched.result(), entries);
  log.info("note heard again", { transcription_id: note.noteId, outcome, engine: note.engine.name, pieces: pieces.length, seconds: Math.round(performance.now() - started) / 1000 });
  return outcome;
}

const label = (engine: string) => (engine === "pocketsphinx" ? "the basic recognizer (PocketSphinx)" : engine === "whisper" ? "the accurate recognizer (whisper)" : engine === "openai" ? "an OpenAI-compatible recognizer" : engine);
