// npm run bench:writer-local [-- --model path/to/model.gguf] [--runs 3]: the local writer's costs on
// this machine: time to load the model, time to the first token, tokens per second (plain text and
// a JSON answer under its schema's grammar), and the process's RSS before, while loaded and after
// unloading. Without --model (or WRITER_LOCAL_MODEL) it runs on the tiny random-weight test model
// (tests/support/tiny-gguf.ts), which measures the machinery, not a real model's speed. Each time is
// also given as a ratio to bare PocketSphinx on tests/fixtures/jfk.wav measured in the same run
// (machines here differ 2× in speed).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { bareJfkSeconds } from "@/bench/speech.ts";
import { tinyGguf } from "@/tests/support/tiny-gguf.ts";

const { values } = parseArgs({ options: { model: { type: "string" }, runs: { type: "string", default: "3" } } });
process.env.LOG_LEVEL ??= "warn";
const runs = Number(values.runs);
const { generateLocally, localModelState, localThreads, unloadLocalModel, CONTEXT_TOKENS } = await import("@/lib/writer/local/runtime.ts");

const NOTE =
  "We moved our main database from MySQL to Postgres last week. The migration took four hours, most of it waiting for the " +
  "replica to catch up. Kubernetes made the rollout boring, which is the point. Next I want to write up what we learned " +
  "about connection pooling, and send the report to the team before Friday.";
const POST = z.object({ title: z.string(), posts: z.array(z.string()).max(3) });

let work: string | undefined;
let model = values.model ?? process.env.WRITER_LOCAL_MODEL;
if (!model) {
  work = await mkdtemp(path.join(tmpdir(), "vd-bench-writer-"));
  model = path.join(work, "tiny.gguf");
  await writeFile(model, tinyGguf(7));
}

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const f = (n: number, digits = 2) => n.toFixed(digits);

async function timed(jsonSchema?: object) {
  const started = performance.now();
  let first = 0;
  const answer = await generateLocally(model!, {
    system: jsonSchema ? "Write one short social post from the note." : "Clean up this transcript: punctuation and casing only.",
    messages: [{ role: "user", text: NOTE }],
    jsonSchema,
    maxTokens: 256,
    temperature: 0.4,
    timeoutMs: 600_000,
    onText: () => void (first ||= performance.now()),
  });
  const end = performance.now();
  const firstMs = (first || end) - started;
  const tokensPerSecond = answer.outputTokens / Math.max(0.001, (end - (first || started)) / 1000);
  return { firstMs, tokensPerSecond, tokens: answer.outputTokens, ms: end - started };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const bareBefore = await bareJfkSeconds();
const rssBefore = process.memoryUsage().rss;
const loadStarted = performance.now();
await timed(); // the first use loads the model
const firstUseMs = performance.now() - loadStarted;
const loadMs = localModelState().load_ms ?? firstUseMs;
const text = [];
const json = [];
for (let i = 0; i < runs; i++) {
  text.push(await timed());
  json.push(await timed(z.toJSONSchema(POST)));
}
const rssLoaded = process.memoryUsage().rss;
await unloadLocalModel();
const rssAfter = process.memoryUsage().rss;
const bareAfter = await bareJfkSeconds();
const bare = (bareBefore + bareAfter) / 2;

console.log(`model: ${path.basename(model)}${work ? " (the tiny random-weight test model)" : ""}; context ${CONTEXT_TOKENS} tokens, ${localThreads()} thread(s); ${runs} runs each, medians`);
console.log(`load: ${f(loadMs / 1000)} s (first use, with node-llama-cpp's own start: ${f(firstUseMs / 1000)} s)`);
for (const [name, results] of [["plain text", text], ["JSON under its grammar", json]] as const) {
  console.log(
    `${name.padEnd(24)} first token ${f(median(results.map((r) => r.firstMs)) / 1000)} s, ${f(median(results.map((r) => r.tokensPerSecond)), 0)} tokens/s ` +
      `(${median(results.map((r) => r.tokens))} tokens in ${f(median(results.map((r) => r.ms)) / 1000)} s)`,
  );
}
console.log(`RSS: ${mb(rssBefore)} before, ${mb(rssLoaded)} loaded, ${mb(rssAfter)} after unloading`);
console.log(
  `÷ bare PocketSphinx on jfk.wav (${f(bare)} s, before ${f(bareBefore)} and after ${f(bareAfter)}): load ${f(loadMs / 1000 / bare)}×, ` +
    `first token ${f(median(text.map((r) => r.firstMs)) / 1000 / bare)}×, 100 tokens ${f(100 / median(text.map((r) => r.tokensPerSecond)) / bare)}×`,
);
if (work) await rm(work, { recursive: true, force: true });
process.exit(0);
