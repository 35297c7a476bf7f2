// npm run bench:fairness [-- --seconds 15 --only ask,export] — can one person's heavy requests stall
// everyone else? On the real app (npm start's launcher, PocketSphinx), once on the embedded database
// and once on PostgreSQL (TEST_DATABASE_URL or the local server). A heavy person has twenty notes of
// 480 KB (each about "the quokka budget"); for each heavy path, N clients of theirs loop its request
// (over two API keys of that one person) while another person's GET ?limit=1 and an unauthenticated
// GET /api/health run one at a time. Prints, per path, the other person's p50 and p95 ÷ idle, the
// health check's, the heavy answers by status, and the server's RSS growth (the launcher's process
// group, at its peak). Issue 66's goal: p95 ≤ 3× idle and RSS growth ≤ 300 MB for every path.
// Needs the production build (`npm run build`, or one the test suite made).
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { migrateDatabase } from "@/lib/db/migrate.ts";
import { bareJfkSeconds } from "@/bench/speech.ts";
import { jfkOpening } from "@/tests/support/audio.ts";
import { ordinaryWords } from "@/tests/support/ordinary-words.ts";
import { createEmptyDatabase } from "@/tests/support/database.ts";
import { runScript, startServer, type RunningServer } from "@/tests/support/processes.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "15" }, only: { type: "string" }, databases: { type: "string", default: "embedded,postgresql" } } });
const SECONDS = Number(values.seconds);
process.env.LOG_LEVEL ??= "silent";

type Auth = Record<string, string>;
type Stats = { p50: number; p95: number; n: number; errors: number };
type HeavyPath = { name: string; clients: number; request: (url: string, auth: Auth, noteId: string) => Promise<Response> };

const json = (auth: Auth) => ({ ...auth, "content-type": "application/json" });
const PATHS: HeavyPath[] = [
  { name: "ask ×3", clients: 3, request: (url, auth) => fetch(`${url}/api/v1/ask`, { method: "POST", headers: json(auth), body: JSON.stringify({ question: "What about the quokka budget?" }) }) },
  { name: "ask ×8", clients: 8, request: (url, auth) => fetch(`${url}/api/v1/ask`, { method: "POST", headers: json(auth), body: JSON.stringify({ question: "What about the quokka budget?" }) }) },
  { name: "export ×4", clients: 4, request: (url, auth) => fetch(`${url}/api/v1/export`, { headers: auth }) },
  { name: "search ×8", clients: 8, request: (url, auth) => fetch(`${url}/api/v1/transcriptions?limit=100&q=quokka`, { headers: auth }) },
  { name: "rewrite ×16", clients: 16, request: (url, auth, id) => fetch(`${url}/api/v1/transcriptions/${id}/rewrites`, { method: "POST", headers: json(auth), body: JSON.stringify({ style: "todo_list" }) }) },
  {
    name: "transcribe ×4",
    clients: 4,
    request: async (url, auth) => {
      const body = new FormData();
      body.set("audio", new Blob([new Uint8Array(await jfkOpening())], { type: "audio/wav" }), "bench.wav");
      return fetch(`${url}/transcribe`, { method: "POST", headers: auth, body });
    },
  },
];
const chosen = values.only ? PATHS.filter((p) => values.only!.split(",").some((o) => p.name.startsWith(o))) : PATHS;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function account(env: Record<string, string>, email: string, keys = 1): Promise<Auth[]> {
  const made = await runScript("admin.ts", ["create-user", "--email", email, "--password", "correct horse battery staple"], env);
  if (made.code !== 0) throw new Error(made.stderr);
  const out: Auth[] = [];
  for (let i = 0; i < keys; i++) out.push({ authorization: `Bearer ${(await runScript("admin.ts", ["create-key", "--email", email, "--name", `k${i}`], env)).stdout.trimEnd().split("\n").at(-1)!}` });
  return out;
}

async function note(server: RunningServer, auth: Auth, text: string, i: number): Promise<string> {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(await jfkOpening())], { type: "audio/wav" }), `note-${i}.wav`);
  const res = await fetch(`${server.url}/transcribe`, { method: "POST", headers: { ...auth, "Idempotency-Key": `fair-${i}-${text.length}` }, body });
  if (res.status !== 200 && res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  const edit = await fetch(`${server.url}/api/v1/transcriptions/${id}`, { method: "PATCH", headers: json(auth), body: JSON.stringify({ text }) });
  if (edit.status !== 200) throw new Error(`edit: ${edit.status} ${(await edit.text()).slice(0, 200)}`);
  return id;
}

/** The server's RSS (its process group, the launcher and the server), in MB. */
function rssMb(server: RunningServer): number {
  try {
    const out = execFileSync("ps", ["-o", "rss=", "-g", String(server.child.pid)], { encoding: "utf8" });
    return out.split("\n").reduce((sum, line) => sum + (Number(line.trim()) || 0), 0) / 1024;
  } catch {
    return NaN;
  }
}

/** One request at a time to `target`, for `ms`: its latencies. */
async function probe(target: () => Promise<Response>, ms: number): Promise<Stats> {
  const times: number[] = [];
  let errors = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t0 = performance.now();
    const res = await target().catch(() => undefined);
    await res?.arrayBuffer();
    if (res?.status !== 200) errors++;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), n: times.length, errors };
}

async function round(kind: "embedded" | "postgresql") {
  const dataDir = await mkdtemp(path.join(tmpdir(), "vd-fairness-"));
  const database = kind === "postgresql" ? await createEmptyDatabase("postgres") : undefined;
  if (database) await migrateDatabase(database.url);
  const env: Record<string, string> = { DATA_DIR: dataDir, ...(database && { DATABASE_URL: database.url }) };
  let server: RunningServer | undefined;
  const rows: { path: string; read: [Stats, Stats]; health: [Stats, Stats]; statuses: Record<number, number>; rss: number }[] = [];
  try {
    server = await startServer({ ...env, LOG_LEVEL: "warn", TRANSCRIBE_ENGINE: "pocketsphinx", RATE_LIMIT_API_PER_MINUTE: "0", RATE_LIMIT_AUDIO_SECONDS_PER_HOUR: "0" });
    const url = server.url;
    const heavy = await account(env, "heavy@example.com", 2);
    const [light] = await account(env, "light@example.com");
    let noteId = "";
    for (let i = 0; i < 20; i++) noteId = await note(server, heavy[0], `The quokka budget was discussed. ${ordinaryWords(480_000, 900 + i)} The quokka budget again.`, i);
    await note(server, light, "a short note", 99);
    const read = () => fetch(`${url}/api/v1/transcriptions?limit=1`, { headers: light });
    const health = () => fetch(`${url}/api/health`);
    for (const heavyPath of chosen) {
      await probe(read, 2_000); // warm-up, and what the last path left settles
      const idleRead = await probe(read, 5_000);
      const idleHealth = await probe(health, 3_000);
      const rssBefore = rssMb(server);
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server!))), 250);
      let stop = false;
      const statuses: Record<number, number> = {};
      const clients = Array.from({ length: heavyPath.clients }, async (_, c) => {
        while (!stop) {
          const res = await heavyPath.request(url, heavy[c % heavy.length], noteId).catch(() => undefined);
          await res?.arrayBuffer().catch(() => undefined);
          statuses[res?.status ?? 0] = (statuses[res?.status ?? 0] ?? 0) + 1;
          if (res?.status === 429) await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const [busyRead, busyHealth] = await Promise.all([probe(read, SECONDS * 1000), probe(health, SECONDS * 1000)]);
      stop = true;
      await Promise.all(clients);
      clearInterval(sampler);
      rows.push({ path: heavyPath.name, read: [idleRead, busyRead], health: [idleHealth, busyHealth], statuses, rss: peak - rssBefore });
      console.error(`${kind} ${heavyPath.name}: read p95 ${(busyRead.p95 / idleRead.p95).toFixed(2)}× idle, RSS +${Math.round(peak - rssBefore)} MB`);
    }
    return { kind, rows };
  } finally {
    await server?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const bare = await bareJfkSeconds();
const rounds = [];
for (const kind of values.databases.split(",") as ("embedded" | "postgresql")[]) rounds.push(await round(kind));
const x = (busy: number, idle: number) => `${(busy / idle).toFixed(2)}×`.padStart(7);
console.log(`\nbare PocketSphinx on jfk.wav: ${bare.toFixed(2)} s (this machine's speed)`);
console.log(`another person's GET ?limit=1 and an unauthenticated GET /api/health, one at a time, beside one person's clients looping a heavy path for ${SECONDS} s`);
console.log(`${"database".padEnd(11)} ${"path".padEnd(14)} ${"read p50".padStart(9)} ${"idle".padStart(7)} ${"p50 ×".padStart(7)} ${"p95 ×".padStart(7)} ${"health p95 ×".padStart(12)} ${"RSS +MB".padStart(8)}  heavy answers`);
for (const r of rounds) {
  for (const row of r.rows) {
    const [idle, busy] = row.read;
    const [hIdle, hBusy] = row.health;
    console.log(
      `${r.kind.padEnd(11)} ${row.path.padEnd(14)} ${`${busy.p50.toFixed(0)} ms`.padStart(9)} ${`${idle.p50.toFixed(0)} ms`.padStart(7)} ${x(busy.p50, idle.p50)} ${x(busy.p95, idle.p95)} ${x(hBusy.p95, hIdle.p95).padStart(12)} ${String(Math.round(row.rss)).padStart(8)}  ${Object.entries(row.statuses).map(([s, n]) => `${s}:${n}`).join(" ")}`,
    );
  }
}
