import { execFile } from "node:child_process";
import { openAsBlob } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { BoundedQueue } from "@/lib/transcription/recognizers/bounded-queue.ts";
import {
  EngineUnavailableError,
  type Recognition,
  type RecognitionEngine,
  type RecognizeInput,
} from "@/lib/transcription/recognizers/types.ts";
import type { Segment, Word } from "@/lib/segment.ts";
import { assignWords } from "@/lib/notes/words.ts";
import { brandOf, hasBrand } from "@/lib/brand.ts";

const TIMEOUT_MS = 10 * 60_000;
// OpenAI takes at most 25 MB per request; 16 kHz mono WAV is 32 kB/s, so longer audio goes up in
// pieces of 10 minutes (19 MB) and the transcripts are joined with their timestamps shifted.
const PIECE_SECONDS = 600;
const exec = promisify(execFile);

const UPSTREAM = brandOf("UpstreamEngineError");

/** The upstream server answered with an error that is not the caller's fault. */
export class UpstreamEngineError extends Error {
  readonly [UPSTREAM] = true;

  /** Any copy's (lib/brand.ts): the engine is one per process. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, UPSTREAM);
  }
}

type VerboseTranscription = {
  text?: string;
  language?: string;
  segments?: { start: number; end: number; text: string }[];
  words?: { word: string; start: number; end: number }[];
};

/**
 * Any OpenAI-compatible /audio/transcriptions server: OpenAI itself, a whisper.cpp server,
 * Speaches, LocalAI — or another Voicedraft. The audio goes up as the decoded 16 kHz mono WAV.
 */
export class OpenAiEngine implements RecognitionEngine {
  readonly name = "openai" as const;
  private readonly queue: BoundedQueue;

  constructor(private readonly options: { baseUrl: string; apiKey?: string; model: string; maxQueue: number; ffmpeg?: string }) {
    this.queue = new BoundedQueue(4, options.maxQueue);
  }

  recognize(input: RecognizeInput): Promise<Recognition> {
    return this.queue.run(() => (input.durationSec > PIECE_SECONDS ? this.runInPieces(input) : this.run(input)), undefined, input.urgency);
  }

  private async runInPieces(input: RecognizeInput): Promise<Recognition> {
    const dir = path.dirname(input.wavPath);
    const pattern = path.join(dir, "piece-%04d.wav");
    await exec(this.options.ffmpeg ?? "ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", input.wavPath, "-f", "segment", "-segment_time", String(PIECE_SECONDS), "-c", "copy", pattern]);
    const pieces = (await readdir(dir)).filter((f) => /^piece-\d{4}\.wav$/.test(f)).sort();
    const texts: string[] = [];
    const segments: Recognition["segments"] = [];
    let language = input.language ?? "";
    for (const [i, piece] of pieces.entries()) {
      const part = await this.run({ ...input, wavPath: path.join(dir, piece), durationSec: PIECE_SECONDS });
      const offset = i * PIECE_SECONDS;
      texts.push(part.text);
      segments.push(
        ...part.segments.map((s) => ({
          start: s.start + offset,
          end: s.end + offset,
          text: s.text,
          ...(s.words && { words: s.words.map((w) => ({ word: w.word, start: w.start + offset, end: w.end + offset })) }),
        })),
      );
      language ||= part.language;
    }
    return { text: texts.filter(Boolean).join(" "), segments, language, engine: this.name, model: this.options.model };
  }

  private async run({ wavPath, prompt, language, signal }: RecognizeInput): Promise<Recognition> {
    const { baseUrl, apiKey, model } = this.options;
    const form = new FormData();
    form.set("file", await openAsBlob(wavPath, { type: "audio/wav" }), path.basename(wavPath));
    form.set("model", model);
    form.set("response_format", "verbose_json");
    // Word timings too (OpenAI's parameter; servers that do not know it ignore it or send no words).
    form.append("timestamp_granularities[]", "word");
    form.append("timestamp_granularities[]", "segment");
    if (prompt) form.set("prompt", prompt);
    if (language) form.set("language", language);
    const url = `${baseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        body: form,
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new EngineUnavailableError(`The transcription server at ${baseUrl} cannot be reached (${(err as Error).message}); check OPENAI_BASE_URL.`);
    }
    if (res.status === 401 || res.status === 403) {
      throw new EngineUnavailableError(`The transcription server at ${baseUrl} refused the key; check OPENAI_API_KEY.`);
    }
    if (!res.ok) {
      const detail = (await res.text().catch(() => "")).slice(0, 300);
      throw new UpstreamEngineError(`The transcription server answered ${res.status}: ${detail}`);
    }
    const body = (await res.json()) as VerboseTranscription;
    if (typeof body.text !== "string") throw new UpstreamEngineError("The transcription server's answer has no text.");
    const segments = withWords(
      (body.segments ?? []).map((s) => ({ start: s.start, end: s.end, text: s.text.trim() })),
      body.words,
    );
    return { text: body.text.trim(), segments, language: body.language ?? language ?? "", engine: this.name, model };
  }
}

/**
 * The server's top-level `words` given to its segments. Words without usable times are dropped;
 * with words but no segments (asked for words only, or a server that sends none), the words make
 * one segment, so their times are not lost.
 */
export function withWords(segments: Segment[], words: unknown): Segment[] {
  if (!Array.isArray(words)) return segments;
  const timed: Word[] = [];
  for (const w of words as Partial<Word>[]) {
    if (typeof w?.word !== "string" || !Number.isFinite(w.start) || !Number.isFinite(w.end)) continue;
    const word = w.word.trim();
    if (word) timed.push({ word, start: w.start!, end: Math.max(w.start!, w.end!) });
  }
  if (!timed.length) return segments;
  if (!segments.length) {
    return [{ start: timed[0].start, end: timed.at(-1)!.end, text: timed.map((w) => w.word).join(" "), words: timed }];
  }
  return assignWords(segments, timed);
}
