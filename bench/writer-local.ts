// npm run bench:writer-local [-- --model path/to/model.gguf | --cost-model qwen3.5-2b]: what a person
// meets when the model on this machine writes for a 1-minute note (~150 words): the note is ready,
// and its insights and three posts (X, LinkedIn, a newsletter, each with its platform's default
// preset) are asked for at once, through the functions the insights and post jobs call
// (writerInsights, writePost: the real prompts, grammars, answer caps, turns and kept sequence). It
// prints each model call's tokens (in the prompt, evaluated, written) and time, the times from "note
// ready" to the title, to the first post's first word, to the first post written and to all of
// them, and RSS loaded and after unloading. Beside it, in the same run and on the same file and
// threads, the limit: node-llama-cpp alone (a bare LlamaChatSession) reading the note once and
// writing as many tokens, and the ratio ours ÷ limit.
//
// Without --model (or WRITER_LOCAL_MODEL) it runs on the cost model of Qwen2.5-1.5B-Instruct Q4_K_M
// (bench/cost-model-gguf.ts: the real architecture, quant types and vocabulary, made-up weights), so
// the costs are the real model's but the answers are nonsense of random length; the limit writes the
// same number of tokens, so the ratio holds. --cost-model names another of that file's models
// (qwen3.5-2b, qwen3.5-0.8b), to weigh one default model against another without downloading them.
// Bare PocketSphinx on jfk.wav, before and after, gives the machine's speed (machines here differ 2×
// in speed).
import { statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { bareJfkSeconds } from "@/bench/speech.ts";
import { COST_MODELS, costModelGguf } from "@/bench/cost-model-gguf.ts";
import { CLEAN_NOTE as NOTE } from "@/bench/clean-note.ts";

const { values } = parseArgs({ options: { model: { type: "string" }, "cost-model": { type: "string" } } });
const costModel = values.model || process.env.WRITER_LOCAL_MODEL ? undefined : (values["cost-model"] ?? "qwen2.5-1.5b");
if (costModel && !COST_MODELS[costModel]) throw new Error(`no cost model "${costModel}" (known: ${Object.keys(COST_MODELS).join(", ")})`);
const model = values.model ?? process.env.WRITER_LOCAL_MODEL ?? (await costModelGguf(costModel));
Object.assign(process.env, { WRITER_LOCAL: "auto", WRITER_LOCAL_MODEL: model, WRITER_AUTO_DOWNLOAD: "false", WRITER_TIMEOUT_SECONDS: "900", LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
for (const name of ["WRITER_BASE_URL", "OPTIMIZER", "CONTENT_GENERATOR"]) delete process.env[name];

const { chatWrapperOf, generateLocally, localModelState, localModelUsage, localThreads, unloadLocalModel, CONTEXT_TOKENS } = await import("@/lib/writer/local/runtime.ts");
const { writerInsights } = await import("@/lib/insights/writer-insights.ts");
const { writePost } = await import("@/lib/posts/generators/writer.ts");
const { PLATFORM_RULES } = await import("@/lib/channels/platforms.ts");

const PLATFORMS = ["x", "linkedin", "newsletter"] as const;

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

type Call = { task: string; prompt: number; evaluated: number; written: number; ms: number; by: string };

async function ours() {
  const calls: Call[] = [];
  let usage = localModelUsage();
  let lastEnd = 0;
  const t0 = performance.now();
  const since = () => performance.now() - t0;
  // Generations take turns, so the usage counted between one task's end and the next's is that task's.
  const ended = (task: string, by: string, started: number) => {
    const now = localModelUsage();
    const ms = since() - Math.max(started, lastEnd);
    lastEnd = since();
    calls.push({ task, prompt: now.promptTokens - usage.promptTokens, evaluated: now.evaluatedTokens - usage.evaluatedTokens, written: now.outputTokens - usage.outputTokens, ms, by: `${by} (${now.generations - usage.generations} call)` });
    usage = now;
  };
  const times: Record<string, number> = {};
  // The model on this machine writes the title and summary first (shown at once), then the key
  // points and to-dos after the posts (lib/insights/writer-insights.ts): two calls.
  let headlineSeen = false;
  const insights = writerInsights([])
    .write(
      { text: NOTE, language: "en" },
      {
        onHeadline: async (headline) => {
          headlineSeen = true;
          times.title = since();
          ended("title, summary", headline.written_by ?? "offline", 0);
        },
      },
    )
    .then(
      (draft) => {
        times.title ??= since();
        ended(headlineSeen ? "points, to-dos" : "insights", draft.written_by ?? "offline", 0);
      },
      // An answer the checks refuse (the cost model's strings may all close at once, blank): the
      // job would let the rules write; the bench counts the call and says so, as for a post.
      (err: Error) => {
        times.title ??= since();
        ended(headlineSeen ? "points, to-dos" : "insights", `not used: ${err.message}`, 0);
      },
    );
  const posts = PLATFORMS.map((platform) => {
    const { generator } = PLATFORM_RULES[platform].defaultPreset;
    let started = 0;
    return writePost(
      { title: "", body: NOTE, platform, preset: { ...generator, tone: "neutral", hashtags: [] }, language: "en" },
      {
        onStart: () => void (started = since()),
        onPartial: (text) => void (text.trim() && (times.firstWord ??= since())),
      },
    ).then((post) => {
      times.firstPost ??= since();
      ended(platform, post.writtenBy === "offline" ? `offline: ${post.reason}` : post.writtenBy!, started);
    });
  });
  await Promise.all([insights, ...posts]);
  times.all = since();
  return { calls, times };
}

/** node-llama-cpp alone: the note read once (as one user message), then `tokens` tokens written. */
async function limit(tokens: number) {
  const { getLlama, LlamaChatSession, LlamaLogLevel } = await import("node-llama-cpp");
  const llama = await getLlama({ gpu: false, build: "never", progressLogs: false, logLevel: LlamaLogLevel.error, maxThreads: localThreads() });
  const loaded = await llama.loadModel({ modelPath: model });
  const context = await loaded.createContext({ contextSize: CONTEXT_TOKENS, threads: localThreads(), sequences: 1 });
  const sequence = context.getSequence();
  // The chat format ours uses (a Qwen3.5 model told not to think: otherwise the limit's tokens are thoughts).
  const session = new LlamaChatSession({ contextSequence: sequence, chatWrapper: await chatWrapperOf(loaded) });
  const t0 = performance.now();
  let first = 0;
  let written = 0;
  let prompt = NOTE;
  // A real model may end its answer early: it is asked to go on until it has written as many.
  while (written < tokens) {
    const before = sequence.tokenMeter.getState();
    await session.prompt(prompt, { maxTokens: tokens - written, temperature: 0.4, onTextChunk: () => void (first ||= performance.now()) });
    const used = sequence.tokenMeter.diff(before);
    written += used.usedOutputTokens;
    if (!used.usedOutputTokens) break;
    prompt = "Go on.";
  }
  const ms = performance.now() - t0;
  const read = loaded.tokenize(NOTE).length;
  await context.dispose();
  await loaded.dispose();
  return { ms, firstMs: first - t0, written, read };
}

const bareBefore = await bareJfkSeconds();
const rssBefore = process.memoryUsage().rss;
// Loaded first, as it is once the clean-up has run (and the limit's load is not timed either); the
// sequence then holds another text, as it would hold the last note's.
const loadStarted = performance.now();
await generateLocally(model, { system: "Say hello.", messages: [{ role: "user", text: "Hello" }], maxTokens: 1, temperature: 0, timeoutMs: 600_000 });
const firstUseMs = performance.now() - loadStarted;
const loadMs = localModelState().load_ms ?? firstUseMs;
const run = await ours();
const rssLoaded = process.memoryUsage().rss;
await unloadLocalModel();
const rssAfter = process.memoryUsage().rss;
const written = run.calls.reduce((n, c) => n + c.written, 0);
const evaluated = run.calls.reduce((n, c) => n + c.evaluated, 0);
const bare = await limit(written);
const bareAfter = await bareJfkSeconds();
const machine = (bareBefore + bareAfter) / 2;

console.log(`model: ${path.basename(model)}, ${mb(statSync(model).size)}${costModel ? ` (the cost model of ${costModel}: its shapes, Q4_K_M types and vocabulary, made-up weights)` : ""}; context ${CONTEXT_TOKENS} tokens, ${localThreads()} thread(s)`);
console.log(`load: ${s(loadMs)} (first use, with node-llama-cpp's own start: ${s(firstUseMs)}); note: ${NOTE.split(/\s+/).length} words`);
console.log("call          tokens in prompt  evaluated  written  time     who wrote");
for (const c of run.calls) console.log(`${c.task.padEnd(14)}${String(c.prompt).padStart(16)}${String(c.evaluated).padStart(11)}${String(c.written).padStart(9)}  ${s(c.ms).padStart(7)}  ${c.by}`);
console.log(`${"all".padEnd(14)}${"".padStart(16)}${String(evaluated).padStart(11)}${String(written).padStart(9)}  ${s(run.times.all).padStart(7)}  ${run.calls.length} calls`);
console.log(`note ready → title ${s(run.times.title)}, → first post's first word ${s(run.times.firstWord ?? Number.NaN)}, → first post written ${s(run.times.firstPost)}, → all posts ${s(run.times.all)}`);
console.log(`limit (a bare LlamaChatSession, same file and threads, loaded first): the note (${bare.read} tokens) read once and ${bare.written} tokens written in ${s(bare.ms)} (first token ${s(bare.firstMs)})`);
const readRate = (bare.read + 20) / (bare.firstMs / 1000);
const writeRate = bare.written / ((bare.ms - bare.firstMs) / 1000);
console.log(`the limit's rates: reading ${readRate.toFixed(0)} tokens/s (the note and the chat template's ~20), writing ${writeRate.toFixed(1)} tokens/s`);
console.log(`ours ÷ limit: ${(run.times.all / bare.ms).toFixed(2)}× (tokens evaluated ${evaluated} against ~${bare.read + 20})`);
console.log(`RSS: ${mb(rssBefore)} before, ${mb(rssLoaded)} loaded, ${mb(rssAfter)} after unloading`);
console.log(`bare PocketSphinx on jfk.wav: ${machine.toFixed(2)} s (before ${bareBefore.toFixed(2)}, after ${bareAfter.toFixed(2)}); all posts ÷ that ${(run.times.all / 1000 / machine).toFixed(1)}×`);
process.exit(0);
