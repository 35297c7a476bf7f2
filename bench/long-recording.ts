// Benchmark: a long recording (default 60 minutes, made by looping the shared real speech)
// through the whole pipeline: upload → decode → recognize → dictionary (10,000 entries) →
// response (time to first text) → background optimization in chunks (optimization time).
// Prints wall time, peak RSS of this process and of the recognizer, and the dictionary's share.
// Run: npm run bench:long [-- --minutes 60] [-- --engine pocketsphinx|whisper]
import { spawnSync } from "node:child_process";
import { readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { minutes: { type: "string", default: "60" }, engine: { type: "string", default: "pocketsphinx" } } });
const MINUTES = Number(values.minutes);
process.env.TRANSCRIBE_ENGINE = values.engine;
process.env.LOG_LEVEL = "silent";
process.env.MAX_AUDIO_SECONDS = String(MINUTES * 60 + 60);
process.env.JOBS_POLL_SECONDS = "0.5";
const SPEECH = path.resolve(import.meta.dirname, "../../shared/audio/jfk.wav");
const RECORDING = path.join(tmpdir(), `voicedraft-bench-${MINUTES}min.mp3`);

// The recording: the 11 s speech looped to the length, as a 64 kbit/s mono mp3 (a phone-like upload).
const loops = Math.ceil((MINUTES * 60) / 11);
const made = spawnSync("ffmpeg", ["-v", "error", "-y", "-stream_loop", String(loops), "-i", SPEECH, "-t", String(MINUTES * 60), "-ac", "1", "-b:a", "64k", RECORDING]);
if (made.status !== 0) throw new Error(`ffmpeg failed: ${made.stderr}`);
const bytes = (await stat(RECORDING)).size;

const { benchUser, unmatchedEntries } = await import("./support.ts");
const entries = [
  { misspelling: "fellow americans", correctSpelling: "Fellow Americans" },
  { misspelling: "country", correctSpelling: "Country" },
  ...unmatchedEntries(9_998),
];
const { key, prisma, close } = await benchUser(entries);
const { compileDictionary } = await import("@/lib/dictionary/matcher.ts");
const { startJobWorkers } = await import("@/lib/jobs/workers.ts");
const { JOBS, SWEEPS } = await import("@/scripts/jobs.ts");
const { closeJobQueue } = await import("@/lib/jobs/queue.ts");
const { POST: transcribe } = await import("@/app/transcribe/route.ts");

const workers = await startJobWorkers(JOBS, SWEEPS);

// Peak memory of the recognizer child processes, sampled from /proc while the request runs.
let childPeakKb = 0;
const sampler = setInterval(() => {
  const out = spawnSync("sh", ["-c", "for p in $(pgrep -P " + process.pid + "); do grep VmHWM /proc/$p/status; done"], { encoding: "utf8" });
  for (const m of out.stdout.matchAll(/VmHWM:\s+(\d+)/g)) childPeakKb = Math.max(childPeakKb, Number(m[1]));
}, 500);

const started = performance.now();
const body = new FormData();
body.set("audio", new Blob([new Uint8Array(await readFile(RECORDING))]), "long.mp3");
const res = await transcribe(new Request("http://bench/transcribe", { method: "POST", body, headers: { authorization: `Bearer ${key}` } }), {
  params: Promise.resolve({}),
});
const result = await res.json();
const firstText = performance.now() - started;
clearInterval(sampler);
if (res.status !== 200) throw new Error(`transcribe answered ${res.status}: ${JSON.stringify(result)}`);

let workflow = await prisma.optimizationWorkflow.findUniqueOrThrow({ where: { id: result.optimizer_processing.optimizer_workflow_id } });
while (workflow.status !== "completed" && workflow.status !== "failed") {
  await new Promise((r) => setTimeout(r, 200));
  workflow = await prisma.optimizationWorkflow.findUniqueOrThrow({ where: { id: workflow.id } });
}
const wall = performance.now() - started;
const optimizationMs = workflow.completedAt!.getTime() - workflow.createdAt.getTime();

// The dictionary on the finished transcript: the 10,000 stored entries, two of them swapped for
// the transcript's most frequent words so that replacements really happen.
const counts = new Map<string, number>();
for (const word of result.text.toLowerCase().split(/\s+/)) counts.set(word, (counts.get(word) ?? 0) + 1);
const frequent = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([word]) => word);
const measured = [...frequent.map((w) => ({ misspelling: w, correctSpelling: w.toUpperCase() })), ...entries.slice(2)];
const dictStart = performance.now();
const dictionary = compileDictionary(measured);
const compiled = performance.now() - dictStart;
const applied = dictionary.apply(result.text);
const dictMs = performance.now() - dictStart;

const words = result.text.split(/\s+/).length;
console.log(`recording: ${MINUTES} min (${(bytes / 1e6).toFixed(1)} MB mp3), engine ${result.engine}, optimizer ${workflow.optimizer}`);
console.log(`time to first text (POST /transcribe): ${(firstText / 1000).toFixed(1)} s  (${words} words, ${(MINUTES * 60 / (firstText / 1000)).toFixed(1)}× real time)`);
console.log(`optimization: ${workflow.status}, ${workflow.chunksTotal} chunks, ${(optimizationMs / 1000).toFixed(2)} s after the response was stored`);
console.log(`wall time (upload to optimized text): ${(wall / 1000).toFixed(1)} s`);
console.log(`dictionary, 10,000 entries on this transcript: compile ${compiled.toFixed(1)} ms, apply ${(dictMs - compiled).toFixed(1)} ms, ${applied.replacements} replacements`);
console.log(`peak RSS: this process ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; largest child (ffmpeg/recognizer) ${(childPeakKb / 1024).toFixed(0)} MB`);

await workers.stop();
await closeJobQueue();
await close();
await rm(RECORDING, { force: true });
