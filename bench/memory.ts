// Benchmark: the memory of `npm start` on the embedded database. Starts it on a fresh DATA_DIR
// (printing the peak while it creates the database) and prints the RSS of every process at idle;
// restarts it on that now existing DATA_DIR and prints idle again; then uploads a long WAV (the
// shared speech looped, default 10 minutes) with a key made by the admin CLI, sampling the RSS of
// every process in the tree from /proc, and prints the peaks.
// Run: NEXT_DIST_DIR=.next-mine npm run bench:memory [-- --minutes 10]
import { spawn, spawnSync } from "node:child_process";
import { request } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort, ROOT, runScript } from "@/tests/support/processes.ts";

const { values } = parseArgs({ options: { minutes: { type: "string", default: "10" }, settle: { type: "string", default: "10" } } });
const MINUTES = Number(values.minutes);
const SPEECH = path.resolve(import.meta.dirname, "../tests/fixtures/jfk.wav");
const dataDir = await mkdtemp(path.join(tmpdir(), "vd-bench-memory-"));
const recording = path.join(dataDir, `speech-${MINUTES}min.wav`);
const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

type Proc = { pid: number; ppid: number; name: string; rssKb: number; anonKb: number };

/** What a process is, in this benchmark's terms. */
function role(pid: number, name: string): string {
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  if (name.startsWith("next-server")) return "next-server";
  if (cmdline.includes("scripts/launch.mjs") || cmdline.includes("voicedraft/start.mjs")) return "launcher";
  if (cmdline.includes("scripts/start.ts")) return /\/tsx(\/dist\/cli\.mjs)? /.test(cmdline) ? "tsx wrapper" : "launcher";
  if (cmdline.includes("create-embedded.ts")) return "db creator";
  if (name.startsWith("npm")) return "npm";
  return name;
}

function processes(): Proc[] {
  const all: Proc[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      const field = (key: string) => new RegExp(`^${key}:\\s+(.*)$`, "m").exec(status)?.[1] ?? "";
      const pid = Number(entry);
      const kb = (key: string) => Number.parseInt(field(key)) || 0;
      all.push({ pid, ppid: Number(field("PPid")), name: role(pid, field("Name")), rssKb: kb("VmRSS"), anonKb: kb("RssAnon") });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** `npm start` and its descendants. */
function tree(rootPid: number): Proc[] {
  const all = processes();
  const inTree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) if (!inTree.has(p.pid) && inTree.has(p.ppid)) grew = inTree.add(p.pid).size > 0;
  }
  return all.filter((p) => inTree.has(p.pid));
}

const byName = (procs: Proc[]) => {
  const out: Record<string, number> = {};
  for (const p of procs) out[p.name] = (out[p.name] ?? 0) + p.rssKb;
  return out;
};
/** POST without fetch's 300 s header timeout: the answer comes when the whole text is ready. */
async function post(url: string, form: FormData, key: string): Promise<{ status: number; answer: string }> {
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const headers = { authorization: `Bearer ${key}`, "content-type": encoded.headers.get("content-type")!, "content-length": body.length };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers }, (res) => {
      let answer = "";
      res.setEncoding("utf8").on("data", (d) => (answer += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, answer }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const total = (procs: Proc[]) => procs.reduce((sum, p) => sum + p.rssKb, 0);

// The recording: the 11 s speech looped to length, 16 kHz mono WAV.
const loops = Math.ceil((MINUTES * 60) / 11);
const made = spawnSync("ffmpeg", ["-v", "error", "-y", "-stream_loop", String(loops), "-i", SPEECH, "-t", String(MINUTES * 60), "-ac", "1", "-ar", "16000", recording]);
if (made.status !== 0) throw new Error(`ffmpeg failed: ${made.stderr}`);

const env = { DATA_DIR: dataDir, MAX_AUDIO_SECONDS: String(MINUTES * 60 + 60), LOG_LEVEL: "warn" };
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const settleMs = Number(values.settle) * 1000;

/** The RSS peaks of `npm start`'s tree while `during` runs, sampled every 100 ms. */
async function peaksDuring(rootPid: () => number | undefined, during: () => Promise<void>) {
  const peaks: Record<string, number> = {};
  let peakTotal = 0;
  const sample = () => {
    const pid = rootPid();
    if (pid === undefined) return;
    const now = tree(pid);
    for (const [name, kb] of Object.entries(byName(now))) peaks[name] = Math.max(peaks[name] ?? 0, kb);
    peakTotal = Math.max(peakTotal, total(now));
  };
  const sampler = setInterval(sample, 100);
  try {
    await during();
  } finally {
    clearInterval(sampler);
  }
  sample();
  return { peaks, peakTotal };
}

/** Proportional set size: each shared page (the node binary, libraries) split between its users. */
function pssKb(pid: number): number {
  try {
    return Number.parseInt(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? "0");
  } catch {
    return 0;
  }
}

function printIdle(title: string, procs: Proc[]) {
  // RSS counts the pages two node processes share (the binary itself) twice; PSS splits them,
  // and anonymous memory (heaps, wasm memories) is what each process holds on its own.
  console.log(`${title} (settled ${values.settle} s):            RSS     PSS     anonymous`);
  const rows: Record<string, { rss: number; pss: number; anon: number }> = {};
  for (const p of procs) {
    const row = (rows[p.name] ??= { rss: 0, pss: 0, anon: 0 });
    row.rss += p.rssKb;
    row.pss += pssKb(p.pid);
    row.anon += p.anonKb;
  }
  const line = (name: string, r: { rss: number; pss: number; anon: number }) =>
    console.log(`  ${name.padEnd(24)} ${mib(r.rss).padStart(7)} ${mib(r.pss).padStart(7)} ${mib(r.anon).padStart(7)}`);
  for (const [name, r] of Object.entries(rows)) line(name, r);
  const sum = (names?: string[]) =>
    Object.entries(rows)
      .filter(([name]) => !names || names.includes(name))
      .reduce((t, [, r]) => ({ rss: t.rss + r.rss, pss: t.pss + r.pss, anon: t.anon + r.anon }), { rss: 0, pss: 0, anon: 0 });
  line("total", sum());
  line("launcher + next-server", sum(["launcher", "next-server"]));
  console.log("  (goal: launcher + next-server ≤ 350 MB)");
}

/** `npm start` on the bench's DATA_DIR, healthy; with the peaks of its tree while it started. */
async function startServer() {
  let child: ReturnType<typeof spawn> | undefined;
  const starting = await peaksDuring(
    () => child?.pid,
    async () => {
      child = spawn("npm", ["start"], {
        cwd: ROOT,
        env: { ...process.env, ...env, HOST: "127.0.0.1", PORT: String(port) },
        stdio: ["ignore", "ignore", "inherit"],
        detached: true, // its own process group, stopped as one
      });
      for (let healthy = false; !healthy; await new Promise((r) => setTimeout(r, 500))) {
        if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
        healthy = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.ok, () => false);
      }
    },
  );
  return { child: child!, url, starting };
}

async function stopServer(child: ReturnType<typeof spawn>) {
  if (child.exitCode !== null) return;
  process.kill(-child.pid!, "SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

let server = await startServer();
try {
  console.log(`peak RSS while starting on a fresh DATA_DIR (creating the database): ${mib(server.starting.peakTotal)}`);
  for (const [name, kb] of Object.entries(server.starting.peaks)) console.log(`  ${name.padEnd(14)} ${mib(kb)}`);
  await new Promise((r) => setTimeout(r, settleMs)); // idle: startup work done
  printIdle("\nidle after the first start (fresh DATA_DIR)", tree(server.child.pid!));
  await stopServer(server.child);
  server = await startServer();
  await new Promise((r) => setTimeout(r, settleMs));
  const launcherPid = server.child.pid!;
  printIdle("\nidle after a restart (existing DATA_DIR)", tree(launcherPid));

  const email = "bench-memory@example.com";
  const user = await runScript("admin.ts", ["create-user", "--email", email, "--password-stdin"], env, "correct horse battery staple\n");
  if (user.code !== 0) throw new Error(`admin create-user failed: ${user.stderr}`);
  const created = await runScript("admin.ts", ["create-key", "--email", email], env);
  if (created.code !== 0) throw new Error(`admin create-key failed: ${created.stderr}`);
  const key = created.stdout.trim().split("\n").at(-1)!;

  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await readFile(recording))], { type: "audio/wav" }), "long.wav");
  form.set("model", "whisper-1");
  const started = performance.now();
  let status = 0;
  let answer = "";
  const { peaks, peakTotal } = await peaksDuring(
    () => launcherPid,
    async () => void ({ status, answer } = await post(`${server.url}/v1/audio/transcriptions`, form, key)),
  );
  if (status !== 200) throw new Error(`upload answered ${status}: ${answer.slice(0, 500)}`);
  console.log(`\n${MINUTES}-minute WAV upload: ${((performance.now() - started) / 1000).toFixed(1)} s, ${answer.length} characters of text`);
  console.log("peak RSS during the upload (sampled every 100 ms; same-named processes summed):");
  for (const [name, kb] of Object.entries(peaks)) console.log(`  ${name.padEnd(14)} ${mib(kb)}`);
  console.log(`  ${"total".padEnd(14)} ${mib(peakTotal)}  (goal ≤ 1024 MB)`);
} finally {
  await stopServer(server.child);
  await rm(dataDir, { recursive: true, force: true });
}
