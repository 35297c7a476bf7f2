import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { recognizerNice } from "@/lib/transcription/recognizers/priority.ts";
import {
  EngineBusyError,
  EngineUnavailableError,
  type Recognition,
  type RecognitionEngine,
  type RecognizeInput,
  type Segment,
} from "@/lib/transcription/recognizers/types.ts";
import type { Word } from "@/lib/segment.ts";
import { BoundedQueue } from "@/lib/transcription/recognizers/bounded-queue.ts";
import { GET_MODEL_HINT, inspectWhisperModel, ModelFileError } from "@/lib/transcription/recognizers/models.ts";
import { whisperWorker, type WorkerReply, type WorkerRequest } from "@/lib/transcription/recognizers/whisper-worker.ts";

export { EngineBusyError, EngineUnavailableError };

const BINDING = "@napi-rs/whisper";
// whisper.cpp keeps at most n_text_ctx / 2 = 224 prompt tokens and drops the *oldest* ones, which
// would cut the caller's own words (they come first); so we cut the tail ourselves, estimating.
export const PROMPT_MAX_TOKENS = 224;

export type WhisperEngineOptions = {
  /** A ggml model file (the caller resolves WHISPER_MODEL or the models folder). */
  modelPath: string;
  /** Calls allowed to wait while one runs; one more gets EngineBusyError. */
  maxQueue?: number;
  /** CPU threads per recognition (default: the cores available, at most 4). */
  threads?: number;
};


/**
 * whisper.cpp in-process through @napi-rs/whisper. Its `full()` is synchronous, so the model lives
 * in one worker thread, loaded once on first use (or by `load()`) and reused; recognitions run one
 * at a time (a whisper context is not reentrant) from a bounded FIFO queue.
 */
export class WhisperEngine implements RecognitionEngine {
  readonly name = "whisper" as const;
  private readonly threads: number;
  private readonly calls: BoundedQueue;
  /** Audio seconds of the calls waiting for the model, and the one it runs: for Retry-After. */
  private readonly waitingAudio = new Set<RecognizeInput>();
  private current?: { startedAt: number; durationSec: number };
  private worker?: Worker;
  private loading?: Promise<{ multilingual: boolean }>;
  private reply?: (message: WorkerReply) => void;
  private loadCount = 0;
  private closed = false;
  // Seconds of work per second of audio, learnt from finished jobs; feeds Retry-After.
  private secondsPerAudioSecond = 1;

  constructor(private readonly options: WhisperEngineOptions) {
    // A whisper context is not reentrant: one recognition at a time.
    this.calls = new BoundedQueue(1, options.maxQueue ?? 4, () => this.retryAfterSeconds());
    this.threads = options.threads ?? Math.max(1, Math.min(4, availableParallelism()));
  }

  /** How many times the model has been loaded (once, unless the worker died or close() ran). */
  get loads(): number {
    return this.loadCount;
  }

  get queue(): { running: number; waiting: number } {
    return this.calls.size;
  }

  recognize(input: RecognizeInput): Promise<Recognition> {
    if (this.closed) return Promise.reject(new EngineUnavailableError("The whisper engine was closed."));
    // whisper cannot be interrupted mid-run: an aborted caller is answered at once, and a
    // running job finishes in the background (its slot is only freed when it ends).
    const recognition = this.calls.run(async () => {
      this.waitingAudio.delete(input);
      const startedAt = Date.now();
      this.current = { startedAt, durationSec: input.durationSec };
      try {
        const result = await this.run(input);
        this.learnSpeed(startedAt, input.durationSec);
        return result;
      } finally {
        this.current = undefined;
        if (!this.calls.size.waiting) this.worker?.unref();
      }
    }, input.signal, input.urgency);
    if (this.calls.size.waiting) this.waitingAudio.add(input);
    return recognition.finally(() => this.waitingAudio.delete(input));
  }

  /** Loads the model now instead of on the first recognition. */
  async load(): Promise<void> {
    await this.ready();
  }

  async close(): Promise<void> {
    this.closed = true;
    const closed = new EngineUnavailableError("The whisper engine was closed.");
    this.calls.cancelWaiting(closed);
    await this.stopWorker();
  }

  private async run(input: RecognizeInput): Promise<Recognition> {
    const { multilingual } = await this.ready();
    const pcm = input.pcm ?? (await readWavPcm(input.wavPath));
    const language = multilingual ? input.language || "auto" : "en";
    const prompt = trimPrompt(input.prompt ?? "");
    this.worker!.ref();
    // Samples we read ourselves move to the worker; the caller's are copied.
    const transfer = input.pcm ? [] : [pcm.buffer as ArrayBuffer];
    const reply = await this.request({ type: "run", pcm, language, prompt, threads: this.threads }, transfer);
    if (reply.type === "error") throw new Error(`whisper failed: ${reply.message}`);
    if (reply.type !== "result") throw new Error(`whisper answered ${reply.type}`);
    // whisper.cpp's timestamps are in centiseconds; each of its segments is one word here (see the worker).
    const words = joinWordPieces(reply.segments.map((s) => ({ text: s.text, start: s.start / 100, end: s.end / 100 })));
    const segments = groupWords(words);
    const joined = segments.map((s) => s.text).join(" ");
    const complete = joined.replace(/\s+/g, "") === reply.text.replace(/\s+/g, "");
    const text = complete ? joined : reply.text.trim();
    return {
      text,
      segments,
      language: reply.language ?? (language === "auto" ? "" : language),
      engine: this.name,
      model: path.basename(this.options.modelPath).replace(/^ggml-|\.bin$/g, ""),
    };
  }

  /** A multilingual model takes any language (it detects it); an English-only one (`*.en`) English only. */
  async languages() {
    const { multilingual } = await this.ready();
    return {
      languages: multilingual ? ("any" as const) : ["en"],
      hint: "This whisper model is English-only; run `npm run model:download -- base` (or small) for a multilingual one and set WHISPER_MODEL to it",
    };
  }

  private ready(): Promise<{ multilingual: boolean }> {
    this.loading ??= this.startWorker().catch((err) => {
      this.loading = undefined;
      void this.stopWorker();
      throw err;
    });
    return this.loading;
  }

  private async startWorker(): Promise<{ multilingual: boolean }> {
    const { modelPath } = this.options;
    try {
      await inspectWhisperModel(modelPath);
    } catch (err) {
      if (err instanceof ModelFileError) {
        throw new EngineUnavailableError(`The whisper model ${modelPath} is not usable: ${err.reason}; ${GET_MODEL_HINT}.`);
      }
      throw err;
    }
    assertCpuSupported();
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { binding: bindingPath(), nice: recognizerNice() }, execArgv: [] });
    this.worker = worker;
    worker.on("message", (message: WorkerReply) => this.reply?.(message));
    worker.on("error", (err) => this.reply?.({ type: "error", message: err.message }));
    worker.on("exit", (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.loading = undefined; // the next call loads the model again
      this.reply?.({ type: "error", message: `the whisper worker exited (code ${code})` });
    });
    const reply = await this.request({ type: "load", modelPath });
    if (reply.type === "loaded") {
      this.loadCount++;
      if (!this.calls.size.running) worker.unref();
      return { multilingual: reply.multilingual };
    }
    const message = reply.type === "error" ? reply.message : reply.type;
    if (reply.type === "error" && reply.binding) {
      throw new EngineUnavailableError(
        `The whisper binding (${BINDING}) has no prebuilt binary for ${process.platform}-${process.arch} here (${message}); ` +
          "use TRANSCRIBE_ENGINE=pocketsphinx or openai.",
      );
    }
    throw new EngineUnavailableError(`whisper.cpp cannot load the model ${modelPath} (${message}); ${GET_MODEL_HINT}.`);
  }

  private request(message: WorkerRequest, transfer: ArrayBuffer[] = []): Promise<WorkerReply> {
    const worker = this.worker;
    if (!worker) return Promise.resolve({ type: "error", message: "the whisper worker is not running" });
    return new Promise((resolve) => {
      this.reply = (reply) => {
        this.reply = undefined;
        resolve(reply);
      };
      worker.postMessage(message, transfer);
    });
  }

  private async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.loading = undefined;
    this.reply?.({ type: "error", message: "the whisper engine was closed" });
    await worker?.terminate();
  }

  private learnSpeed(startedAt: number, durationSec: number): void {
    const seconds = (Date.now() - startedAt) / 1000;
    if (durationSec >= 1) {
      this.secondsPerAudioSecond = 0.7 * this.secondsPerAudioSecond + 0.3 * (seconds / durationSec);
    }
  }

  private retryAfterSeconds(): number {
    const elapsed = this.current ? (Date.now() - this.current.startedAt) / 1000 : 0;
    const queuedAudio = [...this.waitingAudio].reduce((sum, input) => sum + input.durationSec, 0);
    const runningLeft = Math.max(0, (this.current?.durationSec ?? 0) * this.secondsPerAudioSecond - elapsed);
    return Math.min(3600, Math.max(1, Math.ceil(runningLeft + queuedAudio * this.secondsPerAudioSecond)));
  }

}

// A piece that continues the word before it: closing punctuation ("," "." "?" ")") or a
// contraction ("'s", "’re"). An opening quote or bracket, or a trailing hyphen, joins the next.
const CONTINUES = /^(?:[\p{Pe}\p{Pf}.,!?;:…%"']+|['’]\p{L}.*)$/u;
const OPENS = /^[\p{Ps}\p{Pi}"'¿¡]+$|[-‐–—/]$/u;

/**
 * whisper's word pieces (its segments cut at word starts: text trimmed, times in seconds) as
 * words. A piece that starts with whitespace starts a word; one without joins its neighbour when it
 * is punctuation or a contraction (whisper cuts at tokens that start with a space, so these are
 * rare, but a word must never be split into two); empty pieces are dropped. Times are made
 * monotonic (whisper's token timestamps can step back a little): a word never starts before the
 * previous one ends, nor ends before it starts.
 */
export function joinWordPieces(pieces: readonly { text: string; start: number; end: number }[]): Word[] {
  const words: Word[] = [];
  for (const piece of pieces) {
    const text = piece.text.trim();
    if (!text) continue;
    const previous = words.at(-1);
    const joins = previous && !/^\s/.test(piece.text) && (CONTINUES.test(text) || OPENS.test(previous.word));
    if (previous && joins) {
      previous.word += text;
      previous.end = Math.max(previous.end, piece.end);
      continue;
    }
    const start = Math.max(piece.start, previous?.end ?? 0);
    words.push({ word: text, start, end: Math.max(start, piece.end) });
  }
  return words;
}

const SENTENCE_END = /[.?!…]["'”’)\]]*$/u;
export const SEGMENT_MAX_WORDS = 40;
export const SEGMENT_PAUSE_SECONDS = 1;

/**
 * Words regrouped into segments (whisper's own segments are cut into words for their timings):
 * a segment ends after a sentence, before a pause of a second or more, or at 40 words. Each
 * segment keeps its words and spans them.
 */
export function groupWords(words: readonly Word[]): Segment[] {
  const segments: Segment[] = [];
  let current: Word[] = [];
  for (const [i, word] of words.entries()) {
    current.push(word);
    const next = words[i + 1];
    const ends =
      !next || SENTENCE_END.test(word.word) || next.start - word.end >= SEGMENT_PAUSE_SECONDS || current.length >= SEGMENT_MAX_WORDS;
    if (!ends) continue;
    segments.push({ start: current[0].start, end: current.at(-1)!.end, text: current.map((w) => w.word).join(" "), words: current });
    current = [];
  }
  return segments;
}

/**
 * Cuts a prompt to whisper's 224-token budget at a word boundary. Tokens are estimated, not
 * counted: one per 3 characters of each word, rounded up (GPT-2's BPE averages ~4 characters per
 * token on English prose and fewer on names, so this errs on the short side).
 */
export function trimPrompt(prompt: string, maxTokens = PROMPT_MAX_TOKENS): string {
  const words = prompt.trim().split(/\s+/).filter(Boolean);
  let tokens = 0;
  let kept = 0;
  for (const word of words) {
    tokens += Math.ceil(word.length / 3);
    if (tokens > maxTokens) break;
    kept++;
  }
  return words.slice(0, kept).join(" ");
}

/** The samples of a 16 kHz mono 16-bit PCM WAV (what decodeAudio writes), as whisper's floats. */
export async function readWavPcm(wavPath: string): Promise<Float32Array> {
  const file = await readFile(wavPath);
  if (file.toString("ascii", 0, 4) !== "RIFF" || file.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error(`${wavPath} is not a WAV file`);
  }
  let format: { code: number; channels: number; rate: number; bits: number } | undefined;
  for (let offset = 12; offset + 8 <= file.length; ) {
    const id = file.toString("ascii", offset, offset + 4);
    const size = file.readUInt32LE(offset + 4);
    if (id === "fmt ") {
      format = {
        code: file.readUInt16LE(offset + 8),
        channels: file.readUInt16LE(offset + 10),
        rate: file.readUInt32LE(offset + 12),
        bits: file.readUInt16LE(offset + 22),
      };
    } else if (id === "data") {
      // 1 is integer PCM; 0xFFFE (extensible) is what ffmpeg writes for some layouts.
      const pcm16 = (format?.code === 1 || format?.code === 0xfffe) && format.bits === 16;
      if (!pcm16 || format?.channels !== 1 || format.rate !== 16_000) {
        throw new Error(`${wavPath} is not 16 kHz mono 16-bit PCM`);
      }
      // A streamed WAV may carry a placeholder size: the data then runs to the end of the file.
      const end = Math.min(file.length, offset + 8 + size);
      const samples = new Int16Array(file.buffer.slice(file.byteOffset + offset + 8, file.byteOffset + end - ((end - offset - 8) % 2)));
      const pcm = new Float32Array(samples.length);
      for (let i = 0; i < samples.length; i++) pcm[i] = samples[i] / 32768;
      return pcm;
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error(`${wavPath} has no audio data`);
}

function bindingPath(): string {
  for (const from of [import.meta.url, path.join(process.cwd(), "package.json")]) {
    try {
      return createRequire(from).resolve(BINDING);
    } catch {
      // try the next base
    }
  }
  throw new EngineUnavailableError(`The whisper binding (${BINDING}) is not installed; run npm ci.`);
}

// The prebuilt linux-x64 binary is compiled for AVX2/FMA/F16C/BMI2 CPUs (x86-64-v3, 2013+);
// elsewhere it would die on an illegal instruction and take the whole server with it.
function assertCpuSupported(): void {
  if (process.platform !== "linux" || process.arch !== "x64") return;
  let flags: Set<string>;
  try {
    flags = new Set(/^flags\s*:(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1].trim().split(/\s+/));
  } catch {
    return;
  }
  const missing = ["avx2", "fma", "f16c", "bmi2"].filter((f) => !flags.has(f));
  if (missing.length) {
    throw new EngineUnavailableError(
      `This CPU lacks ${missing.join(", ")}, which the prebuilt whisper binary needs; use TRANSCRIBE_ENGINE=pocketsphinx or openai.`,
    );
  }
}

// esbuild (tsx) may wrap named functions in a __name() helper that lives outside the function.
const WORKER_SOURCE = `const __name = (target) => target;\n(${whisperWorker.toString()})(require);`;

