import { execFile, spawn, type ChildProcessByStdio } from "node:child_process";
import { constants, createReadStream, existsSync, openSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { Socket } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { wavDataOffset } from "@/lib/transcription/audio/decode-audio.ts";
import { BoundedQueue } from "@/lib/transcription/recognizers/bounded-queue.ts";
import { lowerPriority } from "@/lib/transcription/recognizers/priority.ts";
import {
  EngineUnavailableError,
  type Recognition,
  type RecognitionEngine,
  type RecognizeInput,
  type Segment,
} from "@/lib/transcription/recognizers/types.ts";
import type { Word } from "@/lib/transcript/segment.ts";

const INSTALL_HINT = "install it with: apt-get install pocketsphinx pocketsphinx-en-us";

/**
 * CMU PocketSphinx (Debian's `pocketsphinx_continuous` with the en-us model): fully offline,
 * modest accuracy, English only. It takes no prompt. Each recording runs in its own process, which
 * reads the samples from its standard input (so it can be started ahead: `prepare`).
 */
export class PocketsphinxEngine implements RecognitionEngine {
  readonly name = "pocketsphinx" as const;
  private readonly queue: BoundedQueue;
  private readonly ready: Ready[] = [];
  private readonly readyMax = Math.max(1, availableParallelism());

  constructor(
    private readonly options: { binary: string; modelDir: string; maxQueue: number },
  ) {
    this.queue = new BoundedQueue(Math.max(1, availableParallelism()), options.maxQueue);
  }

  /** Whether the model files are installed (the binary is checked when it runs). */
  static isInstalled(modelDir: string): boolean {
    return existsSync(path.join(modelDir, "en-us", "mdef"));
  }

  /** English only: PocketSphinx's Debian model is en-us. */
  async languages() {
    return { languages: ["en"], hint: "PocketSphinx recognizes English only; for other languages run `npm run model:download -- base` (a multilingual whisper model) and restart" };
  }

  recognize(input: RecognizeInput): Promise<Recognition> {
    return this.queue.run(() => this.run(input));
  }

  /**
   * Starts a process for the next piece ahead, with its starting point: PocketSphinx spends 0.6 s
   * here loading its model before it reads any audio, which a caption and Stop then do not wait
   * for. At most one per recognizer is kept ready (about 100 MB each), for READY_SECONDS.
   */
  prepare({ cepstralMean }: Pick<RecognizeInput, "cepstralMean">, count: number): void {
    if (!PocketsphinxEngine.isInstalled(this.options.modelDir)) return;
    for (let i = 0; i < Math.min(count, this.readyMax); i++) this.startAhead(cepstralMean);
  }

  private startAhead(cepstralMean: number[] | undefined): void {
    void this.start(cepstralMean)
      .then((started) => {
        const waiting: Ready = { key: meanKey(cepstralMean), started, timer: setTimeout(() => this.discard(waiting), READY_SECONDS * 1000) };
        waiting.timer.unref();
        this.ready.push(waiting);
        while (this.ready.length > this.readyMax) this.discard(this.ready[0]);
      })
      .catch(() => undefined); // the recognition itself will say what is wrong
  }

  async close(): Promise<void> {
    for (const waiting of [...this.ready]) this.discard(waiting);
  }

  private discard(waiting: Ready): void {
    const at = this.ready.indexOf(waiting);
    if (at >= 0) this.ready.splice(at, 1);
    clearTimeout(waiting.timer);
    waiting.started.child.kill("SIGKILL");
    void waiting.started.output.catch(() => undefined).finally(() => rm(waiting.started.dir, { recursive: true, force: true }));
  }

  private async run({ wavPath, signal, cepstralMean }: RecognizeInput): Promise<Recognition> {
    if (!PocketsphinxEngine.isInstalled(this.options.modelDir)) {
      throw new EngineUnavailableError(`The PocketSphinx en-us model is missing in ${this.options.modelDir}; ${INSTALL_HINT}.`);
    }
    signal?.throwIfAborted();
    const at = this.ready.findIndex((waiting) => waiting.key === meanKey(cepstralMean) && waiting.started.child.exitCode === null);
    let started: Started;
    if (at >= 0) {
      const [waiting] = this.ready.splice(at, 1);
      clearTimeout(waiting.timer);
      started = waiting.started;
    } else started = await this.start(cepstralMean);
    const abort = () => ((started.abortedBy = signal?.reason), started.child.kill("SIGKILL"));
    signal?.addEventListener("abort", abort, { once: true });
    try {
      // Raw samples into its FIFO (the WAV's header would be heard as 22 samples of noise); a
      // process that died meanwhile says why when its output is awaited.
      const writer = await openWriter(started);
      if (writer) await pipeline(createReadStream(wavPath, { start: await wavDataOffset(wavPath) }), writer).catch(() => undefined);
      const segments = parseTimedOutput(await started.output);
      const mean = finalCepstralMean(await readFile(started.logFile, "utf8").catch(() => ""));
      return {
        text: segments.map((s) => s.text).join(" "),
        segments,
        language: "en",
        engine: this.name,
        model: "en-us",
        ...(mean && { cepstralMean: mean }),
      };
    } finally {
      signal?.removeEventListener("abort", abort);
      await rm(started.dir, { recursive: true, force: true });
    }
  }

  /**
   * A PocketSphinx process with its model loading, then opening a FIFO to read raw 16 kHz samples
   * from (Node's pipes to a child are sockets, which it cannot open as a file).
   */
  private async start(cepstralMean: number[] | undefined): Promise<Started> {
    const { binary, modelDir } = this.options;
    const dir = await mkdtemp(path.join(tmpdir(), "vd-sphinx-"));
    const logFile = path.join(dir, "log");
    const fifo = path.join(dir, "audio.raw");
    await makeFifo(fifo);
    const args = [
      "-infile", fifo,
      "-hmm", path.join(modelDir, "en-us"),
      ...(await featureParams(modelDir, dir, cepstralMean)),
      "-lm", path.join(modelDir, "en-us.lm.bin"),
      "-dict", path.join(modelDir, "cmudict-en-us.dict"),
      "-samprate", "16000",
      "-time", "yes",
      "-logfn", logFile,
    ];
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
    lowerPriority(child.pid);
    const started: Started = { child, dir, fifo, logFile, output: Promise.resolve("") };
    started.output = new Promise<string>((resolve, reject) => {
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err = (err + d).slice(-2000)));
      child.on("error", (e) => {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") {
          reject(new EngineUnavailableError(`PocketSphinx is not installed (${binary}); ${INSTALL_HINT}.`));
        } else reject(e);
      });
      child.on("close", (code) => {
        if (started.abortedBy !== undefined) return reject(started.abortedBy);
        if (code === 0) return resolve(out);
        void readFile(logFile, "utf8")
          .catch(() => "")
          .then((log) => reject(new Error(`pocketsphinx exited with ${code}: ${lastErrors(log) || err.trim()}`)));
      });
    });
    started.output.catch(() => undefined); // a process kept ready may end unobserved
    return started;
  }
}

/** How long a process started ahead waits for its piece before it is stopped. */
const READY_SECONDS = 20;

type Started = { child: ChildProcessByStdio<null, Readable, Readable>; dir: string; fifo: string; logFile: string; output: Promise<string>; abortedBy?: unknown };

function makeFifo(file: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile("mkfifo", ["-m", "600", file], (err) => (err ? reject(new Error(`could not make a FIFO for PocketSphinx: ${err.message}`)) : resolve())),
  );
}

/**
 * The FIFO's writing end, once PocketSphinx opened it to read (after loading its model): opened
 * without blocking, so it is asked again every 10 ms; null when the process ended first.
 */
async function openWriter(started: Started): Promise<Socket | null> {
  for (;;) {
    if (started.child.exitCode !== null || started.child.signalCode !== null) return null;
    try {
      // Synchronous: a non-blocking open returns at once (and a raw descriptor, which the socket owns).
      const fd = openSync(started.fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      return new Socket({ fd, readable: false, writable: true }).on("error", () => undefined);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENXIO") throw err; // ENXIO: no reader yet
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
type Ready = { key: string; started: Started; timer: NodeJS.Timeout };

/** Which starting point a process was started with (the value its feat.params holds). */
function meanKey(mean: number[] | undefined): string {
  return isCepstralMean(mean) ? formatMean(mean) : "";
}

const formatMean = (mean: number[]) => mean.map((x) => x.toFixed(2)).join(",");

// PocketSphinx normalizes each frame by a running estimate of the speaker's cepstral mean (live
// CMN), which starts at the model's generic value (`-cmninit` in its feat.params) and settles over
// the first seconds of speech. A recording heard in pieces starts each piece unsettled, and its
// first words come out wrong ("and i got my eye" for "and so my fellow americans"): each piece
// therefore starts where the previous one ended. The model's feat.params outranks `-cmninit` on
// the command line, so a copy with the value replaced is passed as `-featparams`.
// bench:live-pieces: with pauses, live pieces 45.0% → see docs/benchmarks.md.
const CEPSTRA = 13;
const featParamsCache = new Map<string, Promise<string>>();

async function featureParams(modelDir: string, dir: string, mean: number[] | undefined): Promise<string[]> {
  if (!isCepstralMean(mean)) return [];
  const file = path.join(modelDir, "en-us", "feat.params");
  let base = featParamsCache.get(file);
  if (!base) featParamsCache.set(file, (base = readFile(file, "utf8").catch(() => "")));
  const lines = (await base).split("\n").filter((line) => line.trim() && !line.startsWith("-cmninit"));
  const params = path.join(dir, "feat.params");
  await writeFile(params, [...lines, `-cmninit ${formatMean(mean)}`, ""].join("\n"));
  return ["-featparams", params];
}

/** A cepstral mean PocketSphinx's en-us model can start from: 13 finite numbers. */
export function isCepstralMean(value: unknown): value is number[] {
  return Array.isArray(value) && value.length === CEPSTRA && value.every((x) => typeof x === "number" && Number.isFinite(x));
}

/** The last "Update to < … >" of live CMN in PocketSphinx's log: where the mean ended. */
export function finalCepstralMean(log: string): number[] | undefined {
  const updates = [...log.matchAll(/cmn_live\.c\(\d+\): Update to\s*<([^>]*)>/g)];
  const last = updates.at(-1)?.[1].trim().split(/\s+/).map(Number);
  return isCepstralMean(last) ? last : undefined;
}

/** The error lines of PocketSphinx's log (its INFO lines are many), else its last lines, for a failure's message. */
function lastErrors(log: string): string {
  const errors = log.split("\n").filter((line) => /^(ERROR|FATAL)/.test(line));
  return (errors.length ? errors.slice(-3) : log.trim().split("\n").slice(-2)).join(" ").slice(0, 500);
}

// With -time yes, each utterance prints its hypothesis, then one line per word:
// "<word> <start> <end> <confidence>", framed by <s> and </s>; "<sil>" and "[NOISE]" are fillers,
// and "word(2)" names a pronunciation variant of "word". The word lines are kept as the segment's
// words (times in seconds, from the recognizer's 10 ms frames).
const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/;

export function parseTimedOutput(stdout: string): Segment[] {
  const segments: Segment[] = [];
  let words: Word[] = [];
  const flush = () => {
    if (words.length) {
      segments.push({ start: words[0].start, end: words.at(-1)!.end, text: words.map((w) => w.word).join(" "), words });
    }
    words = [];
  };
  for (const line of stdout.split("\n")) {
    const match = WORD_LINE.exec(line.trim());
    if (!match) continue;
    const [, token, start, end] = match;
    if (token === "<s>") flush();
    else if (token === "</s>") flush();
    else if (token.startsWith("<") || token.startsWith("[") || token.startsWith("++")) continue;
    else words.push({ word: token.replace(/\(\d+\)$/, ""), start: Number(start), end: Number(end) });
  }
  flush();
  return segments;
}
