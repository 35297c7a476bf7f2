// npm run bench:writer-two-at-once [-- --model path/to/model.gguf --tokens 60]: whether two of a
// note's tasks written at once, on two sequences of one context, would come sooner than one after
// the other (issue 67: the title and summary first, yet the first post's first words within 3 s
// of the note being read). The note is read once on the first sequence; its evaluated state is
// copied to the second (node-llama-cpp's saveStateToFile / loadStateFromFile: the KV cache of the
// shared prefix, no second read); then the title and the X post are written side by side, as
// llama.cpp batches two sequences into one evaluation. Printed: one task alone, both at once, the
// copy's cost, and the second task's first words; its threads as the app's (one fewer than the cores).
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { costModelGguf } from "@/bench/cost-model-gguf.ts";

const { values } = parseArgs({ options: { model: { type: "string" }, tokens: { type: "string", default: "60" } } });
const file = values.model ?? (await costModelGguf("qwen2.5-1.5b"));
const tokens = Number(values.tokens);
const threads = Math.max(1, availableParallelism() - 1);
const { getLlama, LlamaChat, LlamaLogLevel } = await import("node-llama-cpp");
type History = Parameters<InstanceType<typeof LlamaChat>["generateResponse"]>[0];

const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error, maxThreads: threads });
const model = await llama.loadModel({ modelPath: file, useMmap: false });
const context = await model.createContext({ contextSize: 4096, threads, sequences: 2 });
const note = "We talked about the new onboarding flow today and decided to ship it next week, after the last review with the support team. ".repeat(9);
const system = "You write from the person's voice note. Keep their words, their facts and their voice.";
const history = (task: string): History => [
  { type: "system", text: system },
  { type: "user", text: note },
  { type: "model", response: ["Read."] },
  { type: "user", text: task },
  { type: "model", response: [] },
];
const seconds = (since: number) => (performance.now() - since) / 1000;
const [first, second] = [context.getSequence(), context.getSequence()];
const [title, post] = [new LlamaChat({ contextSequence: first, autoDisposeSequence: false }), new LlamaChat({ contextSequence: second, autoDisposeSequence: false })];
const options = (seed: number) => ({ maxTokens: tokens, temperature: 0.8, seed });

let started = performance.now();
await title.generateResponse(history("Write its title and a summary."), { maxTokens: 1 });
console.log(`model: ${path.basename(file)}, ${threads} thread(s); the note and a task read once: ${first.contextTokens.length} tokens in ${seconds(started).toFixed(2)} s`);

started = performance.now();
await title.generateResponse(history("Write its title and a summary."), options(1));
const alone = seconds(started);
console.log(`one task alone: ${tokens} tokens in ${alone.toFixed(2)} s (${(tokens / alone).toFixed(1)} tokens/s)`);

const dir = await mkdtemp(path.join(tmpdir(), "vd-two-at-once-"));
started = performance.now();
const { fileSize } = await first.saveStateToFile(path.join(dir, "note.state"));
await second.loadStateFromFile(path.join(dir, "note.state"), { acceptRisk: true });
console.log(`the read note copied to the second sequence: ${(fileSize / 1e6).toFixed(1)} MB in ${(seconds(started) * 1000).toFixed(0)} ms`);
await rm(dir, { recursive: true, force: true });

started = performance.now();
let firstWords = 0;
const before = [first.tokenMeter.usedOutputTokens, second.tokenMeter.usedOutputTokens];
await Promise.all([
  title.generateResponse(history("Write its title and a summary."), options(2)),
  post.generateResponse(history("Write the X post."), { ...options(3), onTextChunk: () => void (firstWords ||= seconds(started)) }),
]);
const both = seconds(started);
const written = first.tokenMeter.usedOutputTokens - before[0] + second.tokenMeter.usedOutputTokens - before[1];
console.log(`two tasks at once: ${written} tokens in ${both.toFixed(2)} s (${(written / both).toFixed(1)} tokens/s); the second task's first words after ${firstWords.toFixed(2)} s`);
console.log(`throughput at once ÷ alone: ${(written / both / (tokens / alone)).toFixed(2)}×; the first task at once took ${(both / alone).toFixed(2)}× as long as alone`);
await context.dispose();
await model.dispose();
