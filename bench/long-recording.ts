// Benchmark: a long recording (default 20 minutes, whole loops of the shared real speech) through
// POST /transcribe, its pieces recognized on the job queue — first by this process alone (the app
// working its own jobs), then by this process plus one `npm run worker` process — each against
// the bare recognizer (pocketsphinx_continuous on the whole decoded file) in the same run.
// Prints time to full text and its ratio to the bare run, the breakdown (upload + decode + VAD,
// queue wait, recognition, stitch + save), peak RSS per process, the word error rate of the
// pieced text and of the bare whole-file text against the speech's transcript, and the
// 10,000-entry dictionary's cost on the transcript.
// Run: npm run bench:long [-- --minutes 20] [-- --skip-bare]
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { JFK_REFERENCE, wer } from "./speech.ts";

const { values } = parseArgs({
  options: { minutes: { type: "string", default: "20" }, "skip-bare": { type: "boolean", default: false } },
});
const SPEECH_SECONDS = 11;
const LOOPS = Math.max(1, Math.round((Number(values.minutes) * 60) / SPEECH_SECONDS));
process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
process.env.LOG_LEVEL = "silent";
process.env.OPTIMIZER = "off";
process.env.MAX_AUDIO_SECONDS = String(LOOPS * SPEECH_SECONDS + 60);
process.env.RATE_LIMIT_AUDIO_SECONDS_PER_HOUR = "0";
process.env.JOBS_POLL_SECONDS = "0.5";
// Storing 10,000 dictionary entries in one statement must not trip the embedded database's guards on a busy machine.
process.env.EMBEDDED_DB_IDLE_IN_TRANSACTION_SECONDS = "300";
process.env.EMBEDDED_DB_MAX_HOLD_SECONDS = "600";
const ROOT = path.resolve(import.meta.dirname, "..");
const SPEECH = path.resolve(ROOT, "tests/fixtures/jfk.wav");
const work = await mkdtemp(path.join(tmpdir(), "voicedraft-bench-long-"));
// A private DATA_DIR: never the checkout's ./data (whose embedded database a running npm start may host).
process.env.DATA_DIR = path.join(work, "data");
const RECORDING = path.join(work, "long.mp3");
const DECODED = path.join(work, "long.wav");

// The recording: whole loops of the 11 s speech, as a 64 kbit/s mono mp3 (a phone-like upload).
const made = spawnSync("ffmpeg", ["-v", "error", "-y", "-stream_loop", String(LOOPS - 1), "-i", SPEECH, "-ac", "1", "-b:a", "64k", RECORDING]);
if (made.status !== 0) throw new Error(`ffmpeg failed: ${made.stderr}`);
const bytes = (await stat(RECORDING)).size;
const reference = Array.from({ length: LOOPS }, () => JFK_REFERENCE).join(" ");


/** Peak RSS (VmHWM) of the recognizer/ffmpeg children of the given processes, sampled twice a second. */
function sampleChildren(parents: () => number[]) {
  let peakKb = 0;
  const timer = setInterval(() => {
    const script = parents().map((p) => `for c in $(pgrep -P ${p}); do grep VmHWM /proc/$c/status 2>/dev/null; done`).join("; ");
    const out = spawnSync("sh", ["-c", script], { encoding: "utf8" });
    for (const m of out.stdout.matchAll(/VmHWM:\s+(\d+)/g)) peakKb = Math.max(peakKb, Number(m[1]));
  }, 500);
  return { stop: () => (clearInterval(timer), peakKb) };
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// 1. The bare recognizer on the whole decoded file.
let bare: { ms: number; text: string } | undefined;
const decodedRun = spawnSync("ffmpeg", ["-v", "error", "-y", "-i", RECORDING, "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", DECODED]);
if (decodedRun.status !== 0) throw new Error(`ffmpeg failed: ${decodedRun.stderr}`);
if (!values["skip-bare"]) {
  const model = "/usr/share/pocketsphinx/model/en-us";
  const started = performance.now();
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn("pocketsphinx_continuous", [
      "-infile", DECODED, "-hmm", `${model}/en-us`, "-lm", `${model}/en-us.lm.bin`, "-dict", `${model}/cmudict-en-us.dict`,
      "-samprate", "16000", "-logfn", "/dev/null",
    ]);
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(text) : reject(new Error(`pocketsphinx exited with ${code}`))));
  });
  bare = { ms: performance.now() - started, text: out.split("\n").filter(Boolean).join(" ") };
  console.log(`bare pocketsphinx_continuous on the whole decoded file: ${s(bare.ms)}, WER ${(wer(bare.text, reference) * 100).toFixed(1)}%`);
}

// 2. The service: an in-memory database (its wire server lets a worker process join), one user.
const { benchUser, unmatchedEntries } = await import("./support.ts");
const entries = [
  { misspelling: "fellow americans", correctSpelling: "Fellow Americans" },
  { misspelling: "country", correctSpelling: "Country" },
  ...unmatchedEntries(9_998),
];
const { key, prisma, close } = await benchUser(entries);
const { compileDictionary } = await import("@/lib/dictionary/matcher.ts");
const { startJobWorkers } = await import("@/lib/jobs/workers.ts");
const { JOBS, SWEEPS } = await import("@/lib/background-work.ts");
const { closeJobQueue } = await import("@/lib/jobs/queue.ts");
const { env } = await import("@/lib/env.ts");
const { POST: transcribe } = await import("@/app/transcribe/route.ts");
const workers = await startJobWorkers(JOBS, SWEEPS);

/** A dedicated `npm run worker` process on the same database; resolves once it is ready. */
async function startWorker(): Promise<{ child: ChildProcess; peakKb: () => number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/worker.ts")], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "info", DATA_DIR: path.join(work, "worker-data") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stderr!.on("data", (d) => (log = (log + d).slice(-4000)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      log = (log + d).slice(-4000);
      if (log.includes("worker ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the worker exited with ${code}: ${log}`)));
  });
  let peakKb = 0;
  const timer = setInterval(() => {
    const status = spawnSync("grep", ["VmHWM", `/proc/${child.pid}/status`], { encoding: "utf8" }).stdout;
    peakKb = Math.max(peakKb, Number(/(\d+)/.exec(status)?.[1] ?? 0));
  }, 500);
  return {
    child,
    peakKb: () => peakKb,
    async stop() {
      clearInterval(timer);
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

type Run = { label: string; ms: number; text: string; pieces: number; breakdown: string; childPeakKb: number; workerPeakKb?: number };

async function run(label: string, withWorker: boolean): Promise<Run> {
  const worker = withWorker ? await startWorker() : undefined;
  const children = sampleChildren(() => [process.pid, ...(worker?.child.pid ? [worker.child.pid] : [])]);
  const started = performance.now();
  const startedAt = new Date();
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(await readFile(RECORDING))]), "long.mp3");
  body.set("prompt", label); // a workflow of its own for each run (the prompt is part of its identity)
  const res = await transcribe(new Request("http://bench/transcribe", { method: "POST", body, headers: { authorization: `Bearer ${key}` } }), {
    params: Promise.resolve({}),
  });
  const result = await res.json();
  const ms = performance.now() - started;
  const answeredAt = new Date();
  const childPeakKb = children.stop();
  if (res.status !== 200) throw new Error(`transcribe answered ${res.status}: ${JSON.stringify(result)}`);
  const workflow = await prisma.recognitionWorkflow.findFirst({ where: { prompt: { startsWith: label } }, include: { pieces: true } });
  let breakdown = "one piece, no queue";
  if (workflow) {
    const jobs = await prisma.$queryRawUnsafe<{ created_on: Date; started_on: Date; completed_on: Date }[]>(
      `SELECT created_on, started_on, completed_on FROM pgboss.job WHERE name = 'recognize-piece' AND data->>'workflowId' = $1 AND state = 'completed'`,
      workflow.id,
    );
    const wait = jobs.reduce((sum, j) => sum + (j.started_on.getTime() - j.created_on.getTime()), 0);
    const busy = jobs.reduce((sum, j) => sum + (j.completed_on.getTime() - j.started_on.getTime()), 0);
    const lastPiece = Math.max(...workflow.pieces.map((p) => p.completedAt!.getTime()));
    const firstQueued = Math.min(...jobs.map((j) => j.created_on.getTime()));
    breakdown = [
      `upload+decode+VAD ${s(workflow.createdAt.getTime() - startedAt.getTime())}`,
      `pieces queued→all recognized ${s(lastPiece - firstQueued)}`,
      `queue wait ${s(wait / jobs.length)} avg/piece`,
      `recognition ${s(busy / jobs.length)} avg/piece (${s(busy)} in all)`,
      `stitch+save ${s(answeredAt.getTime() - lastPiece)}`,
    ].join(", ");
  }
  const workerPeakKb = worker?.peakKb();
  await worker?.stop();
  return { label, ms, text: result.text, pieces: workflow?.pieces.length ?? 1, breakdown, childPeakKb, workerPeakKb };
}

const runs = [await run("one process", false), await run("two processes", true)];

const minutes = (LOOPS * SPEECH_SECONDS) / 60;
console.log(`recording: ${minutes.toFixed(1)} min (${LOOPS} loops of the shared speech, ${(bytes / 1e6).toFixed(1)} MB mp3), pocketsphinx, ` +
  `RECOGNIZERS_PER_PROCESS=${env().RECOGNIZERS_PER_PROCESS}, pieces of up to ${env().RECOGNITION_PIECE_SECONDS} s`);
for (const r of runs) {
  const ratio = bare ? ` = ${(r.ms / bare.ms).toFixed(2)}× bare` : "";
  console.log(`${r.label}: full text after ${s(r.ms)}${ratio}; ${r.pieces} pieces; WER ${(wer(r.text, reference) * 100).toFixed(1)}%`);
  console.log(`  breakdown: ${r.breakdown}`);
  console.log(`  peak RSS: largest recognizer/ffmpeg child ${mb(r.childPeakKb)}${r.workerPeakKb ? `; worker process ${mb(r.workerPeakKb)}` : ""}`);
}
console.log(`peak RSS of this (app) process over both runs: ${mb(process.resourceUsage().maxRSS)}`);

// The dictionary on the finished transcript: the 10,000 stored entries, two of them swapped for
// the transcript's most frequent words so that replacements really happen.
const text = runs[0].text;
const counts = new Map<string, number>();
for (const word of text.toLowerCase().split(/\s+/)) counts.set(word, (counts.get(word) ?? 0) + 1);
const frequent = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([word]) => word);
const measured = [...frequent.map((w) => ({ misspelling: w, correctSpelling: w.toUpperCase() })), ...entries.slice(2)];
const dictStart = performance.now();
const dictionary = compileDictionary(measured);
const compiled = performance.now() - dictStart;
const applied = dictionary.apply(text);
console.log(`dictionary, 10,000 entries on this transcript: compile ${compiled.toFixed(1)} ms, apply ${(performance.now() - dictStart - compiled).toFixed(1)} ms, ${applied.replacements} replacements`);
console.log("(timings on a shared machine are noisy; the load average at the end was " + (await readFile("/proc/loadavg", "utf8")).split(" ").slice(0, 3).join(" ") + ")");

await workers.stop();
await closeJobQueue();
await close();
await rm(work, { recursive: true, force: true });
