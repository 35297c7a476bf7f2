// API overhead (issue 14, item 7): GET /api/v1/dictionary (100 entries) on the production app
// against a bare node:http + pg server that does the same work (hash the key, look it up, select
// the entries, JSON), both on one fresh PostgreSQL database, each loaded with 32 keep-alive
// connections. Prints req/s, p50 and p99 side by side, the ratio, and Next's own 404 page.
//
// The app runs as `npm start` runs it (the launcher, LOG_LEVEL=info, its job workers), twice:
// with the per-key limit off (RATE_LIMIT_API_PER_MINUTE=0, the like-for-like comparison: the
// default 1200 a minute would answer 429 after the first second) and with the real limit store
// on (the database, a limit too high to hit), so the limiter's cost shows too. The
// unknown-key guard stays at its default in both. The app's log goes to a file, as it would in
// production, not through this process.
//
// Run: npm run bench:api [-- --seconds 10 --warmup 3 --connections 32]
// PostgreSQL from TEST_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres);
// the Next build goes to NEXT_DIST_DIR (default .next-api). The load generator and the bare
// server run in their own processes; the machine is shared, so numbers are noisy: compare the
// ratio of runs made side by side, not absolute figures across runs.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), "..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

type LoadResult = { requests: number; seconds: number; rps: number; p50: number; p99: number; statuses: Record<string, number>; errors: number };
type Measured = LoadResult & { cpuMsPerRequest: number };

// CPU time (user + system) of every process in a process group, in ms, from /proc. On a shared
// machine req/s depends on what else runs; the server's CPU time per request does much less.
const TICK_MS = 10; // USER_HZ is 100 on Linux
function groupCpuMs(pgid: number): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks * TICK_MS;
}

// ---- the load generator (its own process): `--load <url> <key|-> <seconds> <connections>` ----
async function runLoad(url: string, key: string | undefined, seconds: number, connections: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, agent, headers }, (res) => {
        res.on("data", () => {});
        res.on("end", () => {
          latencies.push(performance.now() - started);
          statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
          resolve();
        });
        res.on("error", () => (errors++, resolve()));
      });
      req.setTimeout(10_000, () => req.destroy(new Error("timeout")));
      req.on("error", () => (errors++, resolve()));
      req.end();
    });
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < end) await one();
  }));
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { requests: latencies.length, seconds: elapsed, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), statuses, errors };
}

// ---- the bare server (its own process): `--bare <port>`, DATABASE_URL from the environment ----
async function runBare(port: number): Promise<void> {
  const { default: pg } = await import("pg");
  // As many connections as the app's Prisma pool (lib/db/client.ts).
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer(async (req, res) => {
    try {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
      if (!match) return send(res, 401, { error: { code: "unauthorized" } });
      const hash = createHash("sha256").update(match[1]).digest("hex");
      const keys = await pool.query("SELECT user_id, revoked_at, expires_at FROM api_keys WHERE hash = $1", [hash]);
      const key = keys.rows[0];
      if (!key || key.revoked_at || (key.expires_at && key.expires_at <= new Date())) return send(res, 401, { error: { code: "unauthorized" } });
      const rows = await pool.query(
        "SELECT misspelling, correct_spelling, created_at, updated_at FROM dictionary_entries WHERE user_id = $1 ORDER BY match_key",
        [key.user_id],
      );
      const entries = rows.rows.map((r) => ({
        misspelling: r.misspelling,
        correct_spelling: r.correct_spelling,
        created_at: r.created_at.toISOString(),
        updated_at: r.updated_at.toISOString(),
      }));
      send(res, 200, { entries, next_cursor: null });
    } catch {
      send(res, 500, { error: { code: "internal_error" } });
    }
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, "127.0.0.1", () => process.stdout.write(`listening ${port}\n`));
  process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
}

// ---- the orchestration ----
function child(args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  return spawn(process.execPath, [TSX, SELF, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true, // its own process group: its CPU time is counted, and stopping it stops tsx's child too
  });
}

async function load(url: string, key: string | undefined, seconds: number, connections: number): Promise<LoadResult> {
  const proc = child(["--load", url, key ?? "-", String(seconds), String(connections)]);
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  const code = await new Promise<number>((resolve) => proc.on("exit", (c) => resolve(c ?? 1)));
  if (code !== 0) throw new Error(`the load generator exited with ${code}: ${out}`);
  return JSON.parse(out) as LoadResult;
}

async function freePort(): Promise<number> {
  const { freePort } = await import("@/tests/support/processes.ts");
  return freePort();
}

async function waitFor(url: string, proc: ChildProcess, log: () => string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server exited with ${proc.exitCode}:\n${log()}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer in ${timeoutMs} ms:\n${log()}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.on("exit", r));
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.pid && process.kill(-proc.pid, "SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}

/** `npm start`'s launcher on the given database, its log (stdout and stderr) into a file. */
async function startApp(databaseUrl: string, dir: string, extra: Record<string, string>, cpuProfDir?: string) {
  const port = await freePort();
  const logFile = path.join(dir, `app-${port}.log`);
  const fd = openSync(logFile, "a");
  // Profiling starts the built Next server alone (Node refuses --cpu-prof in NODE_OPTIONS, so it
  // cannot reach the launcher's child); the launcher builds first when the build is stale.
  const args = cpuProfDir
    ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`, "--max-semi-space-size=8", createRequire(import.meta.url).resolve("next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"]
    : [TSX, path.join(ROOT, "scripts", "start.ts")];
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-api",
      NEXT_TELEMETRY_DISABLED: "1",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "info",
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(dir, "data"),
      TRANSCRIBE_ENGINE: "pocketsphinx",
      WHISPER_AUTO_DOWNLOAD: "false",
      WRITER_AUTO_DOWNLOAD: "false",
      ...extra,
    },
    stdio: ["ignore", fd, fd],
    detached: true, // its own process group, so stopping it stops next too
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, proc, () => readFileSync(logFile, "utf8").slice(-4000));
  return { url, proc, logFile };
}

async function main() {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "10" },
      warmup: { type: "string", default: "3" },
      connections: { type: "string", default: "32" },
      // Writes V8 CPU profiles of the app's processes (.cpuprofile, open in Chrome's DevTools) here.
      "cpu-prof": { type: "string" },
    },
  });
  const seconds = Number(values.seconds);
  const warmup = Number(values.warmup);
  const connections = Number(values.connections);
  const dir = mkdtempSync(path.join(tmpdir(), "vd-bench-api-"));

  process.env.LOG_LEVEL = "silent";
  const { createEmptyDatabase } = await import("@/tests/support/database.ts");
  const { migrateDatabase } = await import("@/lib/db/migrate.ts");
  const database = await createEmptyDatabase("postgres");
  const running: ChildProcess[] = [];
  try {
    await migrateDatabase(database.url);
    process.env.DATABASE_URL = database.url;
    const { resetEnvCache } = await import("@/lib/env.ts");
    resetEnvCache();
    const { createUser } = await import("@/lib/accounts/create-user.ts");
    const { createApiKey } = await import("@/lib/api-keys/create-api-key.ts");
    const { db, closeDb } = await import("@/lib/db/client.ts");
    const { matchKey } = await import("@/lib/dictionary/match-key.ts");
    const { unmatchedEntries } = await import("@/bench/support.ts");
    const user = await createUser({ input: { email: "bench@example.com", password: "correct horse battery staple" } });
    const { key } = await createApiKey({ userId: user.id, input: { name: "bench", scopes: ["dictionary:read"] } });
    const prisma = await db();
    const entries = unmatchedEntries(100);
    await prisma.dictionaryEntry.createMany({ data: entries.map((e) => ({ userId: user.id, matchKey: matchKey(e.misspelling), ...e })) });
    await closeDb();

    const measure = async (label: string, url: string, withKey: boolean, server: ChildProcess): Promise<Measured> => {
      await load(url, withKey ? key : undefined, warmup, connections);
      const cpuBefore = groupCpuMs(server.pid!);
      const result = await load(url, withKey ? key : undefined, seconds, connections);
      const cpuMsPerRequest = (groupCpuMs(server.pid!) - cpuBefore) / Math.max(1, result.requests);
      console.error(`${label}: ${result.rps.toFixed(0)} req/s, ${cpuMsPerRequest.toFixed(2)} CPU ms/request, statuses ${JSON.stringify(result.statuses)}, errors ${result.errors}`);
      return { ...result, cpuMsPerRequest };
    };

    const barePort = await freePort();
    const bare = child(["--bare", String(barePort)], { DATABASE_URL: database.url });
    running.push(bare);
    await new Promise<void>((resolve, reject) => {
      bare.stdout!.on("data", (d) => String(d).includes("listening") && resolve());
      bare.on("exit", (code) => reject(new Error(`the bare server exited with ${code}`)));
    });
    const bareResult = await measure("bare", `http://127.0.0.1:${barePort}/api/v1/dictionary`, true, bare);
    await stop(bare);

    const results: [string, Measured][] = [["bare node:http + pg", bareResult]];
    for (const [label, extra] of [
      ["app, per-key limit off", { RATE_LIMIT_API_PER_MINUTE: "0" }],
      ["app, per-key limit on (database store)", { RATE_LIMIT_API_PER_MINUTE: "100000000", RATE_LIMIT_STORE: "database" }],
    ] as const) {
      const profileDir = values["cpu-prof"] && path.resolve(values["cpu-prof"]);
      const app = await startApp(database.url, dir, extra, profileDir);
      running.push(app.proc);
      results.push([label, await measure(label, `${app.url}/api/v1/dictionary`, true, app.proc)]);
      // Not while profiling: the 404 page's samples would mix into the API's profile.
      if (label === "app, per-key limit off" && !profileDir) results.push(["app, Next's 404 page (reference)", await measure("404", `${app.url}/bench-no-such-page`, false, app.proc)]);
      await stop(app.proc);
      const lines = readFileSync(app.logFile, "utf8").split("\n").filter((l) => l.includes('"msg":"request"')).length;
      console.error(`${label}: ${lines} request log lines written`);
    }

    const base = bareResult.rps;
    console.log(`\nGET /api/v1/dictionary, 100 entries, ${connections} connections, ${seconds} s each after ${warmup} s warm-up`);
    const baseCpu = bareResult.cpuMsPerRequest;
    console.log(
      `${"server".padEnd(42)} ${"req/s".padStart(7)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"× bare".padStart(7)} ${"CPU ms/req".padStart(10)} ${"× bare".padStart(7)}  statuses`,
    );
    for (const [label, r] of results) {
      const statuses = Object.entries(r.statuses).map(([s, n]) => `${s}:${n}`).join(" ") + (r.errors ? ` errors:${r.errors}` : "");
      const cells = [r.rps.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1), (r.rps / base).toFixed(2)].map((c) => c.padStart(7));
      const cpu = [r.cpuMsPerRequest.toFixed(2).padStart(10), (baseCpu / r.cpuMsPerRequest).toFixed(2).padStart(7)];
      console.log(`${label.padEnd(42)} ${cells.join(" ")} ${cpu.join(" ")}  ${statuses}`);
    }
    console.log(
      "CPU ms/req: the server's processes' CPU time per answered request (its second \"× bare\" is bare's CPU per request over\n" +
        "this one's, the throughput ratio if each had the CPU to itself). The machine is shared: req/s and latencies move with\n" +
        "other load, so compare runs made side by side; PostgreSQL's own CPU is not counted in either.",
    );
  } finally {
    for (const proc of running) await stop(proc).catch(() => {});
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "--load") {
  const [url, key, seconds, connections] = rest;
  const result = await runLoad(url, key === "-" ? undefined : key, Number(seconds), Number(connections));
  process.stdout.write(JSON.stringify(result));
} else if (mode === "--bare") {
  await runBare(Number(rest[0]));
} else {
  await main();
}
