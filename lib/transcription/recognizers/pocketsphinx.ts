import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
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
 * modest accuracy, English only. It takes no prompt. Each recording runs in its own process.
 */
export class PocketsphinxEngine implements RecognitionEngine {
  readonly name = "pocketsphinx" as const;
  private readonly queue: BoundedQueue;

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

  private async run({ wavPath, signal }: RecognizeInput): Promise<Recognition> {
    const { binary, modelDir } = this.options;
    if (!PocketsphinxEngine.isInstalled(modelDir)) {
      throw new EngineUnavailableError(`The PocketSphinx en-us model is missing in ${modelDir}; ${INSTALL_HINT}.`);
    }
    const args = [
      "-infile", wavPath,
      "-hmm", path.join(modelDir, "en-us"),
      "-lm", path.join(modelDir, "en-us.lm.bin"),
      "-dict", path.join(modelDir, "cmudict-en-us.dict"),
      "-samprate", "16000",
      "-time", "yes",
      "-logfn", "/dev/null",
    ];
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], signal });
      lowerPriority(child.pid);
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err = (err + d).slice(-2000)));
      child.on("error", (e) => {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") {
          reject(new EngineUnavailableError(`PocketSphinx is not installed (${binary}); ${INSTALL_HINT}.`));
        } else reject(e);
      });
      child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`pocketsphinx exited with ${code}: ${err.trim()}`))));
    });
    const segments = parseTimedOutput(stdout);
    return { text: segments.map((s) => s.text).join(" "), segments, language: "en", engine: this.name, model: "en-us" };
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
