// npm run bench:heavy-readers [-- --readers 8 --notes 5 --kb 480] — does one account's heavy reading
// slow everyone else? On the real app (npm start's launcher, PocketSphinx), once on the embedded
// database and once on PostgreSQL (TEST_DATABASE_URL or the local server): a heavy account with
// `--notes` notes of `--kb` KB each, `--readers` clients of it looping GET
// /api/v1/transcriptions?limit=100&q=<a word in every note>; meanwhile another account's GET
// /api/v1/transcriptions?limit=1, one at a time. Prints that one's p50 and p95 idle and beside the
// heavy reader, and the ratio (issue 60: at most 2× idle).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { migrateDatabase } from "@/lib/db/migrate.ts";
import { jfkOpening } from "@/tests/support/audio.ts";
import { ordinaryWords } from "@/tests/support/ordinary-words.ts";
import { createEmptyDatabase } from "@/tests/support/database.ts";
import { runScript, startServer, type RunningServer } from "@/tests/support/processes.ts";

const { values } = parseArgs({ options: { readers: { type: "string", default: "8" }, notes: { type: "string", default: "5" }, kb: { type: "string", default: "480" } } });
const READERS = Number(values.readers);
const NOTES = Number(values.notes);
const KB = Number(values.kb);
process.env.LOG_LEVEL ??= "silent";

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
type Stats = { p50: number; p95: number; n: number; errors: number };

/** A note of about `chars` characters with "alpha", the word the heavy reader searches, first. */
const words = (chars: number, seed: number) => `alpha ${ordinaryWords(chars - 6, seed)}`;

async function account(server: RunningServer, env: Record<string, string>, email: string): Promise<Record<string, string>> {
  const made = await runScript("admin.ts", ["create-user", "--email", email, "--password", "correct horse battery staple"], env);
  if (made.code !== 0) throw new Error(made.stderr);
  const key = (await runScript("admin.ts", ["create-key", "--email", email], env)).stdout.trimEnd().split("\n").at(-1)!;
  return { authorization: `Bearer ${key}` };
}

async function note(server: RunningServer, auth: Record<string, string>, text: string, i: number): Promise<void> {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(await jfkOpening())], { type: "audio/wav" }), `note-${i}.wav`);
  const res = await fetch(`${server.url}/transcribe`, { method: "POST", headers: { ...auth, "Idempotency-Key": `heavy-${i}-${text.length}` }, body });
  if (res.status !== 200 && res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  const edit = await fetch(`${server.url}/api/v1/transcriptions/${id}`, { method: "PATCH", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ text }) });
  if (edit.status !== 200) throw new Error(`edit: ${edit.status} ${(await edit.text()).slice(0, 200)}`);
}

/** The light reader's latencies, one request at a time, for `ms`. */
async function lightReads(url: string, auth: Record<string, string>, ms: number): Promise<Stats> {
  const times: number[] = [];
  let errors = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/v1/transcriptions?limit=1`, { headers: auth }).catch(() => undefined);
    await res?.arrayBuffer();
    if (res?.status !== 200) errors++;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), n: times.length, errors };
}

async function round(kind: "embedded" | "postgresql") {
  const dataDir = await mkdtemp(path.join(tmpdir(), "vd-heavy-readers-"));
  const database = kind === "postgresql" ? await createEmptyDatabase("postgres") : undefined;
  if (database) await migrateDatabase(database.url);
  const env: Record<string, string> = { DATA_DIR: dataDir, ...(database && { DATABASE_URL: database.url }) };
  let server: RunningServer | undefined;
  try {
    server = await startServer({ ...env, LOG_LEVEL: "warn", TRANSCRIBE_ENGINE: "pocketsphinx", RATE_LIMIT_API_PER_MINUTE: "0", RATE_LIMIT_AUDIO_SECONDS_PER_HOUR: "0" });
    const heavy = await account(server, env, "heavy@example.com");
    const light = await account(server, env, "light@example.com");
    for (let i = 0; i < NOTES; i++) await note(server, heavy, words(KB * 1000, i + 1), i);
    await note(server, light, "a short note", 99);
    await lightReads(server.url, light, 2_000); // warm-up
    const idle = await lightReads(server.url, light, 10_000);
    let stop = false;
    let heavyAnswers = 0;
    const readers = Array.from({ length: READERS }, async () => {
      while (!stop) {
        const res = await fetch(`${server!.url}/api/v1/transcriptions?limit=100&q=alpha`, { headers: heavy }).catch(() => undefined);
        await res?.arrayBuffer();
        heavyAnswers++;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const busy = await lightReads(server.url, light, 20_000);
    stop = true;
    await Promise.all(readers);
    return { kind, idle, busy, heavyAnswers };
  } finally {
    await server?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const rounds = [];
for (const kind of ["embedded", "postgresql"] as const) {
  console.error(`${kind}: ${NOTES} notes of ${KB} KB, ${READERS} heavy readers…`);
  rounds.push(await round(kind));
}
const ms = (n: number) => `${n.toFixed(0)} ms`.padStart(8);
console.log(`\nanother account's GET ?limit=1 beside ${READERS} readers of ${NOTES} notes of ${KB} KB (limit=100&q=alpha)`);
console.log(`${"database".padEnd(11)} ${"idle p50".padStart(8)} ${"idle p95".padStart(8)} ${"busy p50".padStart(8)} ${"busy p95".padStart(8)} ${"p50 ×".padStart(6)} ${"p95 ×".padStart(6)}  heavy answers  errors`);
for (const r of rounds) {
  console.log(
    `${r.kind.padEnd(11)} ${ms(r.idle.p50)} ${ms(r.idle.p95)} ${ms(r.busy.p50)} ${ms(r.busy.p95)} ${(r.busy.p50 / r.idle.p50).toFixed(2).padStart(6)} ${(r.busy.p95 / r.idle.p95).toFixed(2).padStart(6)}  ${String(r.heavyAnswers).padStart(13)}  ${r.idle.errors + r.busy.errors}`,
  );
}
