import { spawn, type ChildProcessByStdio } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { BoundedQueue } from "@/lib/transcription/recognizers/bounded-queue.ts";
import { lowerPriority, niceFor, type Urgency } from "@/lib/transcription/recognizers/priority.ts";
import {
  EngineUnavailableError,
  type Recognition,
  type RecognitionEngine,
  type RecognizeInput,
  type RecognitionStream,
  type Segment,
  type PhraseGuess,
  type StreamOptions,
} from "@/lib/transcription/recognizers/types.ts";
import type { Word } from "@/lib/segment.ts";

const INSTALL_HINT = "install it with: apt-get install pocketsphinx pocketsphinx-en-us";

/**
 * CMU PocketSphinx (Debian's `pocketsphinx_continuous` with the en-us model): fully offline,
 * modest accuracy, English only. It takes no prompt. Each recording runs in its own process.
 */
export class PocketsphinxEngine implements RecognitionEngine {
  readonly name = "pocketsphinx" as const;
  private readonly queue: BoundedQueue;

  constructor(
    private readonly options: {
      binary: string;
      /** native/sphinx-stream.c built (scripts/build-sphinx-stream.mjs): it also prints the phrase being spoken. Else `binary` hears the stream. */
      streamBinary?: string | null;
      modelDir: string;
      maxQueue: number;
    },
  ) {
    // The second pass (background, at the lowest CPU priority) holds no slot against live pieces and uploads.
    this.queue = new BoundedQueue(Math.max(1, availableParallelism()), options.maxQueue, 5, { backgroundYields: true });
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
    return this.queue.run(() => this.run(input), undefined, input.urgency);
  }

  /**
   * One `pocketsphinx_continuous` reading raw samples from its stdin: its own voice-activity
   * detection ends a phrase at a pause of half a second, and it prints the phrase's words at once
   * (0.2–0.6 s after the pause here). Outside the queue: it keeps up with speech in real time on
   * a part of one core for as long as the recording lasts. Where native/sphinx-stream.c is built,
   * it runs instead: the same calls of the same library (the same phrases, words and times), and
   * every half second of speech its guess at the phrase being spoken, so that captions show
   * words while the person speaks, not only at each pause (a phrase of 7 s showed nothing for 8 s).
   */
  async openStream({ urgency = "realtime", cepstralMean, onPhrase, onGuess }: StreamOptions = {}): Promise<RecognitionStream | null> {
    const { binary, streamBinary, modelDir } = this.options;
    if (!PocketsphinxEngine.isInstalled(modelDir)) return null;
    // From where this speaker's voice settled last time, as a recording's first piece starts.
    const dir = await mkdtemp(path.join(tmpdir(), "vd-sphinx-stream-"));
    const args = [...modelArgs(modelDir, await featureParams(modelDir, dir, cepstralMean)), ...STREAM_SEARCH];
    const program = streamBinary ? { binary: streamBinary, guesses: true } : { binary, guesses: false };
    return new PocketsphinxStream(program, args, urgency, () => rm(dir, { recursive: true, force: true }), { onPhrase, onGuess });
  }

  private async run({ wavPath, signal, cepstralMean, urgency }: RecognizeInput): Promise<Recognition> {
    const { binary, modelDir } = this.options;
    if (!PocketsphinxEngine.isInstalled(modelDir)) {
      throw new EngineUnavailableError(`The PocketSphinx en-us model is missing in ${modelDir}; ${INSTALL_HINT}.`);
    }
    const dir = await mkdtemp(path.join(tmpdir(), "vd-sphinx-"));
    try {
      const logFile = path.join(dir, "log");
      const args = ["-infile", wavPath, ...modelArgs(modelDir, await featureParams(modelDir, dir, cepstralMean)), "-logfn", logFile];
      const stdout = await new Promise<string>((resolve, reject) => {
        const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], signal });
        lowerPriority(child.pid, urgency);
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
          if (code === 0) return resolve(out);
          void readFile(logFile, "utf8")
            .catch(() => "")
            .then((log) => reject(new Error(`pocketsphinx exited with ${code}: ${lastErrors(log) || err.trim()}`)));
        });
      });
      const segments = parseTimedOutput(stdout);
      const mean = finalCepstralMean(await readFile(logFile, "utf8").catch(() => ""));
      return {
        text: segments.map((s) => s.text).join(" "),
        segments,
        language: "en",
        engine: this.name,
        model: "en-us",
        ...(mean && { cepstralMean: mean }),
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/**
 * A stream must keep up with speech on part of one core, beside the pieces' recognitions, the
 * server and (in the tests) the browser. Where PocketSphinx takes 11 s of a core for jfk.wav's
 * 11 s, it fell 7–20 s behind the speaker (bench:app-record, 2026-11-29), so captions and Stop
 * waited for it. At most 3000 active HMMs per frame (the default is 30000): jfk.wav took 4.8 s
 * instead of 11 s here with the same words but its first three, and 60 s of it looped with
 * pauses 25 s instead of 41 s, at a word error rate of 53.6% against 58.2%. Searching half the
 * frames too (`-ds 2`) was faster still (16 s) but lost "country" in jfk.wav. The pieces, whose
 * text the note keeps, are searched in full.
 */
const STREAM_SEARCH = ["-maxhmmpf", "3000"];

/** What every PocketSphinx run is given: the en-us model, 16 kHz audio, and each word's times. */
function modelArgs(modelDir: string, featParams: string[] = []): string[] {
  return [
    "-hmm", path.join(modelDir, "en-us"),
    ...featParams,
    "-lm", path.join(modelDir, "en-us.lm.bin"),
    "-dict", path.join(modelDir, "cmudict-en-us.dict"),
    "-samprate", "16000",
    "-time", "yes",
  ];
}

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
  await writeFile(params, [...lines, `-cmninit ${mean.map((x) => x.toFixed(2)).join(",")}`, ""].join("\n"));
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

class PocketsphinxStream implements RecognitionStream {
  readonly engine = "pocketsphinx";
  readonly model = "en-us";
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly heard: Segment[] = [];
  /** The lines of the phrase being printed, and the unfinished line after them. */
  private phrase = "";
  private line = "";
  private guessed: PhraseGuess | undefined;
  /** sphinx-stream: how far it had heard when the last phrase ended (past that phrase's guesses). */
  heardUntil = 0;
  private readonly done: Promise<number | null>;
  private failed = false;
  private closed = false;

  constructor(
    program: { binary: string; guesses: boolean },
    args: string[],
    urgency: Urgency,
    cleanUp: () => Promise<void>,
    { onPhrase, onGuess }: Pick<StreamOptions, "onPhrase" | "onGuess"> = {},
  ) {
    // Node hands a child a socket for its stdin, which pocketsphinx_continuous cannot open as a
    // file (/dev/stdin: ENXIO): `cat` copies it into a pipe (sphinx-stream reads its stdin as it
    // is). In a process group of their own, so that close() ends both; at the niceness of the
    // work (PocketSphinx's, not only the shell's).
    const script = program.guesses ? 'exec nice -n "$0" "$@" -logfn /dev/null' : 'cat | exec nice -n "$0" "$@" -infile /dev/stdin -logfn /dev/null';
    this.child = spawn("/bin/sh", ["-c", script, String(niceFor(urgency)), program.binary, ...args], { stdio: ["pipe", "pipe", "ignore"], detached: true });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (d: string) => {
      const lines = (this.line + d).split("\n");
      this.line = lines.pop()!;
      for (const line of lines) {
        const heard = /^~heard (\d+(?:\.\d+)?)$/.exec(line.trim());
        if (heard) {
          this.heardUntil = Number(heard[1]);
          continue;
        }
        const guess = parseGuess(line);
        if (guess) {
          this.guessed = guess;
          onGuess?.();
          continue;
        }
        // Each phrase ends with its "</s>" line.
        this.phrase += `${line}\n`;
        if (!line.startsWith("</s>")) continue;
        const words = parseTimedOutput(this.phrase);
        this.heard.push(...words);
        this.phrase = "";
        // Its "~heard" line may come in the next chunk: the phrase's reach is at least its last
        // guess's and its last word's, so that captions never reach back in between.
        this.heardUntil = Math.max(this.heardUntil, this.guessed?.untilSec ?? 0, words.at(-1)?.end ?? 0);
        this.guessed = undefined;
        onPhrase?.();
      }
    });
    // Not installed, or killed: captions then come from the pieces alone.
    this.child.on("error", () => (this.failed = true));
    this.child.stdin.on("error", () => (this.failed = true));
    this.done = new Promise((resolve) => this.child.on("close", (code) => resolve(code)));
    void this.done.then(cleanUp).catch(() => undefined);
  }

  write(pcm: Buffer): void {
    if (!this.failed && this.child.stdin.writable) this.child.stdin.write(pcm);
  }

  segments(): Segment[] {
    return this.heard;
  }

  guess(): PhraseGuess | undefined {
    return this.guessed;
  }

  async end(): Promise<Segment[]> {
    if (this.child.stdin.writable) this.child.stdin.end();
    const code = await this.done;
    const rest = `${this.phrase}${this.line}`;
    if (rest.trim()) this.heard.push(...parseTimedOutput(rest));
    this.phrase = this.line = "";
    this.guessed = undefined;
    if (!this.closed && (this.failed || code !== 0)) throw new Error(`the PocketSphinx stream ended with ${code}`);
    return this.heard;
  }

  close(): void {
    this.closed = true;
    try {
      if (this.child.pid) process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // Ended already.
    }
  }
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

// sphinx-stream's guess at the phrase being spoken: "~partial <seconds heard> <words so far>".
const GUESS_LINE = /^~partial (\d+(?:\.\d+)?) (.*)$/;

/** A guess line's words (fillers left out, variants named by their word), or null for any other line. */
export function parseGuess(line: string): PhraseGuess | null {
  const match = GUESS_LINE.exec(line.trim());
  if (!match) return null;
  const words = match[2].split(/\s+/).filter((w) => w && !/^[<[]|^\+\+/.test(w)).map((w) => w.replace(/\(\d+\)$/, ""));
  return { text: words.join(" "), untilSec: Number(match[1]) };
}
