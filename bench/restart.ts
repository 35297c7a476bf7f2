// Benchmark: how fast `npm start` is healthy on the embedded database, after a clean stop and
// after `kill -9` of the whole tree with writes in flight (WAL replay included), and what a health
// poller saw on the way (connections refused, 503s). Every acknowledged write must be there after
// the restart; the bench says how many were lost (the answer must be 0).
// Run: npm run bench:restart [-- --runs 5 --writers 4 --root ../other-checkout] (builds the app first if it has to).
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { freePort, ROOT, runScript } from "@/tests/support/processes.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    writers: { type: "string", default: "4" },
    "write-ms": { type: "string", default: "1500" },
    root: { type: "string", default: ROOT }, // another checkout to measure (its own build and bundle)
  },
});
const RUNS = Number(values.runs);
const WRITERS = Number(values.writers);
const dataDir = await mkdtemp(path.join(tmpdir(), "vd-bench-restart-"));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const env = { DATA_DIR: dataDir, DATABASE_URL: "", HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "info", RATE_LIMIT_API_PER_MINUTE: "0" };

type Start = {
  child: ChildProcess;
  healthyMs: number;
  refused: number;
  unavailable: number;
  other: number;
  failedStarts: number;
  phases: string[];
};

/**
 * `npm start`, with its health polled every 25 ms from the spawn until the first 200. A start
 * that exits (e.g. "the embedded database is in use" while the killed one is not yet collected)
 * is run again, as a person would, and counted; the clock keeps running.
 */
async function start(from = performance.now()): Promise<Start> {
  let refused = 0;
  let unavailable = 0;
  let other = 0;
  let failedStarts = 0;
  for (;;) {
    const spawnedAt = performance.now();
    const wall = Date.now();
    const child = spawn("npm", ["start"], { cwd: values.root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const phases: string[] = [];
    let output = "";
    const onLine = (d: Buffer) => {
      output += d;
      for (const line of String(d).split("\n")) {
        try {
          const { time, msg } = JSON.parse(line) as { time: string; msg: string };
          phases.push(`${((Date.parse(time) - wall) / 1000).toFixed(2)} s ${msg}`);
        } catch {
          // not a log line (npm's banner, Next's own output)
        }
      }
    };
    child.stdout!.on("data", onLine);
    child.stderr!.on("data", onLine);
    for (;;) {
      if (child.exitCode !== null) break;
      if (performance.now() - spawnedAt > 120_000) {
        process.kill(-child.pid!, "SIGKILL");
        throw new Error(`npm start was not healthy after 120 s:\n${output}`);
      }
      const status = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(10_000) }).then(
        (r) => (void r.body?.cancel(), r.status),
        () => 0,
      );
      if (status === 200) {
        phases.push(`${((performance.now() - spawnedAt) / 1000).toFixed(2)} s healthy`);
        return { child, healthyMs: performance.now() - from, refused, unavailable, other, failedStarts, phases };
      }
      if (status === 0) refused++;
      else if (status === 503) unavailable++;
      else other++;
      await new Promise((r) => setTimeout(r, 25));
    }
    if (++failedStarts > 20) throw new Error(`npm start exited with ${child.exitCode} 20 times:\n${output}`);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  process.kill(-child.pid!, "SIGTERM");
  await exited;
}

/**
 * SIGKILL to npm, the launcher and the server at once, as an OOM killer or a power cut would;
 * back when the launcher (the database's host) has exited, the moment a new start may begin.
 */
async function killTree(child: ChildProcess): Promise<void> {
  const { pid } = JSON.parse(await readFile(path.join(dataDir, "embedded-db.lock"), "utf8")) as { pid: number };
  process.kill(-child.pid!, "SIGKILL");
  while (exists(pid) && !isZombie(pid)) await new Promise((r) => setTimeout(r, 5));
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Exited, not yet collected by its parent (here: init, as npm died with it). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return true;
  }
}

/** Writers adding dictionary entries until told to stop; the misspellings the server acknowledged. */
function writeUntil(key: string, run: number, signal: AbortSignal): Promise<string[]> {
  const acknowledged: string[] = [];
  const writer = async (w: number) => {
    for (let i = 0; !signal.aborted; i++) {
      const misspelling = `run${run} writer${w} entry${i}`;
      const res = await fetch(`${url}/api/v1/dictionary/add`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ misspelling, correct_spelling: `Entry${i}` }),
      }).catch(() => null);
      if (res?.status === 201) acknowledged.push(misspelling);
      else if (res) await res.body?.cancel();
      if (!res) return;
    }
  };
  return Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w))).then(() => acknowledged);
}

async function storedMisspellings(): Promise<Set<string>> {
  const lock = JSON.parse(await readFile(path.join(dataDir, "embedded-db.lock"), "utf8")) as { port: number };
  const secret = (await readFile(path.join(dataDir, "embedded-db.secret"), "utf8")).trim();
  const client = new pg.Client({ host: "127.0.0.1", port: lock.port, user: "postgres", password: secret, database: "postgres" });
  await client.connect();
  try {
    const { rows } = await client.query<{ misspelling: string }>("SELECT misspelling FROM dictionary_entries");
    return new Set(rows.map((r) => r.misspelling));
  } finally {
    await client.end();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
function summary(title: string, starts: Start[]) {
  const times = starts.map((s) => s.healthyMs).sort((a, b) => a - b);
  const median = times[Math.floor((times.length - 1) / 2)];
  console.log(`\n${title}: ${starts.length} runs`);
  console.log(`  to healthy: median ${seconds(median)}, worst ${seconds(times.at(-1)!)}, best ${seconds(times[0])}`);
  console.log(`  health poller saw: ${starts.reduce((n, s) => n + s.unavailable, 0)} × 503, ` +
    `${starts.reduce((n, s) => n + s.refused, 0)} × connection refused, ${starts.reduce((n, s) => n + s.other, 0)} × other; ` +
    `npm start exited and was run again ${starts.reduce((n, s) => n + s.failedStarts, 0)} times`);
  console.log(`  per run: ${starts.map((s) => `${seconds(s.healthyMs)} (503: ${s.unavailable}, refused: ${s.refused})`).join("; ")}`);
}

let current: ChildProcess | undefined;
try {
  const first = await start();
  current = first.child;
  console.log(`first start (new DATA_DIR; builds the app if needed): ${seconds(first.healthyMs)}`);
  const email = "bench-restart@example.com";
  const user = await runScript("admin.ts", ["create-user", "--email", email, "--password-stdin"], env, "correct horse battery staple\n");
  if (user.code !== 0) throw new Error(`admin create-user failed: ${user.stderr}`);
  const created = await runScript("admin.ts", ["create-key", "--email", email], env);
  if (created.code !== 0) throw new Error(`admin create-key failed: ${created.stderr}`);
  const key = created.stdout.trim().split("\n").at(-1)!;

  const normal: Start[] = [];
  for (let run = 0; run < RUNS; run++) {
    await stop(current);
    const s = await start();
    current = s.child;
    normal.push(s);
  }
  console.log("\nphases of the last normal start (from the spawn of npm start):");
  for (const p of normal.at(-1)!.phases) console.log(`  ${p}`);

  const crashed: Start[] = [];
  let acknowledged = 0;
  let lost = 0;
  const exitedAfter: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const writing = new AbortController();
    const writes = writeUntil(key, run, writing.signal);
    await new Promise((r) => setTimeout(r, Number(values["write-ms"])));
    const killedAt = performance.now();
    await killTree(current);
    exitedAfter.push(performance.now() - killedAt);
    writing.abort();
    const s = await start(killedAt);
    const acked = await writes;
    current = s.child;
    crashed.push(s);
    const stored = await storedMisspellings();
    acknowledged += acked.length;
    lost += acked.filter((m) => !stored.has(m)).length;
  }
  console.log("\nphases of the last start after kill -9 (from the spawn of npm start):");
  for (const p of crashed.at(-1)!.phases) console.log(`  ${p}`);

  summary("normal start (after SIGTERM), spawn of npm start → first 200 from /api/health", normal);
  summary(`after kill -9 of the whole tree with ${WRITERS} writers in flight, kill → first 200`, crashed);
  console.log(`  the killed launcher had exited after: ${exitedAfter.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}`);
  console.log(`  writes acknowledged before the kills: ${acknowledged}; lost: ${lost}`);
} finally {
  if (current) await stop(current).catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
}
