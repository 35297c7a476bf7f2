// The body of the whisper worker thread: typed and linted here, but run from its own source text
// (WhisperEngine evaluates `whisperWorker.toString()`), so that no bundler has to know about a
// second entry file. It must therefore stay self-contained: no imports, no module-level helpers;
// everything it needs comes through `load` (the worker's require) and the messages.
import type { MessagePort } from "node:worker_threads";

type Segment = { text: string; start: number; end: number };
type WhisperContext = { full(params: FullParams, pcm: Float32Array): string; isMultilingual: number; fullLangId: number };
type FullParams = {
  nThreads: number;
  language: string;
  printProgress: boolean;
  printRealtime: boolean;
  initialPrompt?: string;
  tokenTimestamps: boolean;
  maxLen: number;
  splitOnWord: boolean;
  onNewSegment?: (segment: Segment) => void;
};
type Binding = {
  Whisper: { new (modelPath: string, options: { useGpu: boolean }): WhisperContext; lang(id: number): string | null };
  WhisperFullParams: new (strategy: number) => FullParams;
  WhisperSamplingStrategy: { Greedy: number };
};

export type WorkerRequest =
  | { type: "load"; modelPath: string }
  | { type: "run"; pcm: Float32Array; threads: number; language: string; prompt?: string };

export type WorkerReply =
  | { type: "loaded"; multilingual: boolean }
  | { type: "result"; text: string; language: string | null; segments: Segment[] }
  | { type: "error"; message: string; binding?: boolean };

/** One message at a time: load, then run, run, … */
export function whisperWorker(load: (id: string) => unknown): void {
  const { parentPort, workerData } = load("node:worker_threads") as { parentPort: MessagePort; workerData: { binding: string; nice: number } };
  // This thread runs below request handling (RECOGNIZER_NICE); on Linux niceness is per thread and
  // the threads whisper.cpp starts from here inherit it. /proc/thread-self names this thread's id.
  if (workerData.nice) {
    try {
      const tid = Number(String((load("node:fs") as typeof import("node:fs")).readlinkSync("/proc/thread-self")).split("/").pop());
      (load("node:os") as typeof import("node:os")).setPriority(tid, workerData.nice);
    } catch {
      // Not Linux, or refused: recognition goes on at normal priority.
    }
  }
  let binding: Binding | undefined;
  let bindingError: unknown;
  let whisper: WhisperContext | undefined;
  try {
    binding = load(workerData.binding) as Binding;
  } catch (err) {
    bindingError = err;
  }
  const reply = (message: WorkerReply) => parentPort.postMessage(message);
  const squash = (s: string) => s.replace(/\s+/g, "");
  parentPort.on("message", async (msg: WorkerRequest) => {
    try {
      if (!binding) return reply({ type: "error", binding: true, message: String((bindingError as Error)?.message ?? bindingError) });
      if (msg.type === "load") {
        whisper = new binding.Whisper(msg.modelPath, { useGpu: false });
        return reply({ type: "loaded", multilingual: whisper.isMultilingual !== 0 });
      }
      if (!whisper) return reply({ type: "error", message: "the model is not loaded" });
      const params = new binding.WhisperFullParams(binding.WhisperSamplingStrategy.Greedy);
      params.nThreads = msg.threads;
      params.language = msg.language;
      params.printProgress = false;
      params.printRealtime = false;
      if (msg.prompt) params.initialPrompt = msg.prompt;
      // Word timings: token timestamps, and every segment cut after each word (max_len 1, at
      // tokens that start with a space), so each callback is one word with its start and end;
      // WhisperEngine joins leftover pieces and regroups the words into segments. Decoding is
      // the same; only the segments are cut finer afterwards.
      params.tokenTimestamps = true;
      params.maxLen = 1;
      params.splitOnWord = true;
      const segments: Segment[] = [];
      params.onNewSegment = (segment) => segments.push(segment);
      const text = whisper.full(params, msg.pcm);
      // Segments arrive as callbacks queued on this thread while full() ran: let them in.
      for (let i = 0; i < 100 && squash(segments.map((s) => s.text).join("")) !== squash(text); i++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      const language = binding.Whisper.lang(whisper.fullLangId);
      reply({ type: "result", text, language, segments: segments.map((s) => ({ text: s.text, start: s.start, end: s.end })) });
    } catch (err) {
      reply({ type: "error", message: String((err as Error)?.message ?? err) });
    }
  });
}
