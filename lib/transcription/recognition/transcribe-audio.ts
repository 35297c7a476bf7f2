import path from "node:path";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { loadDictionary } from "@/lib/dictionary/store/dictionary-entries.ts";
import { compileDictionary, type DictionaryEntry } from "@/lib/dictionary/matcher.ts";
import { correctRecognition } from "@/lib/transcription/recognition/correct-recognition.ts";
import { mergeDictionaries } from "@/lib/dictionary/merge-dictionaries.ts";
import { SUPPORTED_FORMATS_TEXT } from "@/lib/transcription/audio/audio-format.ts";
import { decodeAudio, type DecodedAudio } from "@/lib/transcription/audio/decode-audio.ts";
import { assertAudioQuotaLeft, encodeNoteAudio, findReplay, noteNotRecognized, noteRecognized, shouldKeepAudio, type Encoding } from "@/lib/notes/note-recognized.ts";
import { analyzeSpeech } from "@/lib/transcription/audio/vad.ts";
import { recognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { UpstreamEngineError } from "@/lib/transcription/recognizers/openai.ts";
import { EngineBusyError, EngineUnavailableError, type Recognition, type RecognitionEngine } from "@/lib/transcription/recognizers/types.ts";
import { recognizePieces } from "@/lib/transcription/recognition/recognize-pieces.ts";
import { stitchPieces } from "@/lib/transcription/recognition/stitch-pieces.ts";
import type { Upload } from "@/lib/transcription/audio/receive-upload.ts";
import { PROMPT_MAX, type TranscribeFields } from "@/lib/transcription/schemas.ts";
import { type TranscriptionResult } from "@/lib/notes/schemas.ts";
import { runOnce } from "@/lib/idempotency/claim.ts";
import { hashRequest } from "@/lib/idempotency/request-hash.ts";
import { lowerPriority } from "@/lib/transcription/recognizers/priority.ts";
import { userLanguage } from "@/lib/transcription/recognition/user-language.ts";
import { rememberSpeakerMean, speakerMean } from "@/lib/transcription/recognition/speaker-profile.ts";
import { assertAudioBudgetLeft, chargeAudioSeconds } from "@/lib/rate-limit/audio-budget.ts";

/** Identifies a request by what changes its result: the audio bytes, prompt, dict and language. */
export function uploadRequestHash(
  audioSha256: string,
  input: Pick<TranscribeFields, "prompt" | "dict" | "language"> & Partial<Pick<TranscribeFields, "recording_id" | "recording_part">>,
): string {
  const { prompt, dict, language, recording_id, recording_part } = input;
  return hashRequest({ audio_sha256: audioSha256, prompt, dict, language, recording_id, recording_part });
}

/** What the recognizer should expect: the caller's prompt, then the words the dictionary produces. */
// Engines trim further to their own budget (whisper: ~224 tokens).
export function recognizerPrompt(prompt: string | undefined, entries: DictionaryEntry[]): string | undefined {
  const base = prompt?.trim() ?? "";
  const spellings: string[] = [];
  let length = base.length;
  for (const spelling of new Set(entries.map((e) => e.correctSpelling))) {
    if (length + spelling.length + 2 > PROMPT_MAX) break;
    spellings.push(spelling);
    length += spelling.length + 2;
  }
  return [base, spellings.join(", ")].filter(Boolean).join(". ") || undefined;
}

/** Runs an engine call, turning the engines' errors into the API's. */
export async function engineCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof EngineBusyError) {
      throw new ApiError("engine_busy", err.message, { headers: { "Retry-After": String(err.retryAfterSeconds) } });
    }
    if (err instanceof EngineUnavailableError) throw new ApiError("engine_unavailable", err.message);
    if (err instanceof UpstreamEngineError) throw new ApiError("engine_failed", err.message);
    throw err;
  }
}

type TranscribeArgs = {
  userId: string;
  upload: Upload;
  input: Omit<TranscribeFields, "recording_id" | "recording_part" | "keep_audio" | "recorded_at"> &
    Partial<Pick<TranscribeFields, "recording_id" | "recording_part" | "keep_audio" | "recorded_at">>;
  idempotencyKey?: string;
  /**
   * Called with the dictionary-corrected text of each finished part of the recording, in order
   * (once with the whole text when it is recognized in one piece); what streaming answers send.
   */
  onText?: (delta: string) => void;
  /** The client went away: a long recording's request stops waiting for its pieces (they still finish). */
  signal?: AbortSignal;
};
type Transcribed = { result: TranscriptionResult; replayed: boolean };

/** POST /transcribe: an uploaded recording → decoded → recognized → corrected with the dictionary. */
export async function transcribeAudio(args: TranscribeArgs): Promise<Transcribed> {
  const hash = uploadRequestHash(args.upload.audioSha256, args.input);
  const { userId, idempotencyKey } = args;
  // A replay costs no audio seconds: the budget is checked only where the recording is decoded.
  const run = async () => {
    await assertAudioBudgetLeft(userId);
    try {
      return await transcribeOnce(args, hash);
    } catch (err) {
      await noteNotRecognized({ userId, recordingId: args.input.recording_id, err });
      throw err;
    }
  };
  if (!idempotencyKey) return run();
  const ref = { userId, idempotencyKey, hash };
  return runOnce(ref, () => findReplay(ref), run);
}

async function transcribeOnce(args: TranscribeArgs, hash: string): Promise<Transcribed> {
  const { userId, upload, idempotencyKey, onText, signal } = args;
  // No language in the upload: the person's language setting, else the recognizer detects it.
  const input = { ...args.input, language: args.input.language ?? (await userLanguage(userId)) };
  if (upload.audioBytes === 0) throw new ApiError("empty_audio", "The audio file is empty (0 bytes).");
  if (!upload.format) {
    throw new ApiError("unsupported_audio", `This file is not audio in a supported format (${SUPPORTED_FORMATS_TEXT}).`);
  }
  // A recording to keep needs room in the account's audio quota (one without its audio does not).
  if (shouldKeepAudio(input.keep_audio)) await assertAudioQuotaLeft({ userId });
  const config = env();
  const engine = await engineCall(recognitionEngine);
  await assertLanguageSupported(engine, input.language);
  const audio = await decodeAudio(upload.audioPath, path.join(upload.workDir, "audio.wav"), {
    ffmpeg: config.FFMPEG_PATH,
    format: upload.format,
    maxSeconds: config.MAX_AUDIO_SECONDS,
    concurrency: config.DECODE_CONCURRENCY,
    maxWaiting: config.DECODE_QUEUE_MAX,
  });
  // The recording is compressed to be kept while it is recognized (stopped if that fails).
  const keeping = shouldKeepAudio(input.keep_audio) ? encodeNoteAudio({ path: audio.wavPath, demuxer: "wav" }, upload.workDir, { lowerPriority }) : undefined;
  try {
    return await recognizeDecoded({ userId, upload, input, idempotencyKey, onText, signal }, hash, engine, audio, keeping);
  } catch (err) {
    keeping?.cancel();
    throw err;
  }
}

async function recognizeDecoded(
  { userId, upload, input, idempotencyKey, onText, signal }: TranscribeArgs,
  hash: string,
  engine: RecognitionEngine,
  audio: DecodedAudio,
  keeping: Encoding | undefined,
): Promise<Transcribed> {
  const config = env();
  const speech = await analyzeSpeech(audio.wavPath, audio.durationSec, pieceLengths(config.RECOGNITION_PIECE_SECONDS)); // 422 no_speech when no voice is heard
  await chargeAudioSeconds({ userId, seconds: audio.durationSec });

  const requestEntries = (input.dict ?? []).map((e) => ({ misspelling: e.misspelling, correctSpelling: e.correct_spelling }));
  const entries = mergeDictionaries(await loadDictionary(userId), requestEntries);
  const dictionary = compileDictionary(entries);
  const prompt = recognizerPrompt(input.prompt, entries);
  const pieces = speech.pieces;
  let recognition: Recognition;
  let corrected: ReturnType<typeof correctRecognition>;
  if (pieces.length > 1) {
    // A long recording: its pieces are recognized in parallel by the job workers, each corrected
    // with the dictionary (pieces are cut in pauses) and passed on in order as soon as it is done.
    const stitched = stitchPieces();
    await recognizePieces({
      userId,
      requestHash: hash,
      wavPath: audio.wavPath,
      durationSec: audio.durationSec,
      pieces,
      prompt,
      language: input.language,
      signal,
      onPiece: (piece) => {
        const text = stitched.add(piece, dictionary);
        if (text) onText?.(text);
      },
    });
    ({ recognition, corrected } = stitched.result());
  } else {
    const cepstralMean = await speakerMean(userId);
    recognition = await engineCall(() =>
      engine.recognize({ wavPath: audio.wavPath, durationSec: audio.durationSec, prompt, language: input.language, cepstralMean }),
    );
    await rememberSpeakerMean(userId, recognition.cepstralMean);
    corrected = correctRecognition(recognition, dictionary);
    if (corrected.text) onText?.(corrected.text);
  }
  // The note's life from here (clean-up, saving, insights, webhooks, the audio kept) is lib/notes'.
  return noteRecognized(
    {
      userId,
      idempotencyKey,
      data: {
        text: corrected.text,
        rawText: recognition.text,
        language: recognition.language,
        durationSec: Math.round(audio.durationSec * 1000) / 1000,
        engine: recognition.engine,
        segments: corrected.segments,
        dictionaryReplacements: corrected.replacements,
        audioSha256: upload.audioSha256,
        requestHash: hash,
        recordingId: input.recording_id,
        recordingPart: input.recording_part,
        recordedAt: input.recorded_at ? new Date(input.recorded_at) : undefined,
      },
    },
    { cleanUpKey: cleanUpKey(hash, entries), requestDictionary: requestEntries, durationSec: audio.durationSec, keeping },
  );
}

/**
 * The optimization workflow's identity: the request plus the dictionary it was corrected with, so
 * the same audio uploaded again after a dictionary change is cleaned up again, not served the old
 * text (a retry with the same dictionary still shares one workflow).
 */
export function cleanUpKey(uploadHash: string, entries: DictionaryEntry[]): string {
  return hashRequest({ upload: uploadHash, dictionary: entries.map((e) => [e.misspelling, e.correctSpelling]) });
}

/** Pieces of RECOGNITION_PIECE_SECONDS at most, and half that at least (cut in pauses). */
export function pieceLengths(maxSeconds: number) {
  return { maxSeconds, minSeconds: maxSeconds / 2 };
}

/** A language the engine cannot recognize is 422 before any decoding: never English words for German speech. */
export async function assertLanguageSupported(engine: RecognitionEngine, language: string | undefined): Promise<void> {
  if (!language || language === "en" || !engine.languages) return;
  const { languages, hint } = await engine.languages();
  if (languages === "any" || languages.includes(language)) return;
  throw new ApiError("language_unsupported", `This server cannot recognize the language "${language}": ${hint}.`, {
    details: [{ path: "language", message: `supported: ${languages.join(", ")}` }],
  });
}
