// npm run bench:contention [-- --uploads 10 --minutes 3] — do interactive requests stay fast while
// recognition saturates the CPU? On the real app (npm start's launcher, a fresh PostgreSQL database
// from TEST_DATABASE_URL or the local server, as a production site runs; PocketSphinx), prints p50/p99 of an API read (GET /api/v1/dictionary, 100 entries, 200 at once)
// and of a page load (Notes, /transcripts, with a session cookie, 20 at once), first with the
// recognizers idle, then saturated by `--uploads` recordings of `--minutes` of real speech being
// recognized; and the ratio saturated/idle. Twice: recognizers at RECOGNIZER_NICE=10 (the default)
// and at 0 (as requests), with the time the uploads took to become text (recognition throughput).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { loopedSpeech } from "@/bench/speech.ts";
import { parseArgs } from "node:util";
import { migrateDatabase } from "@/lib/db/migrate.ts";
import { createEmptyDatabase } from "@/tests/support/database.ts";
import { runScript, startServer, type RunningServer } from "@/tests/support/processes.ts";

const { values } = parseArgs({ options: { uploads: { type: "string", default: "10" }, minutes: { type: "string", default: "3" } } });
const UPLOADS = Number(values.uploads);
const MINUTES = Number(values.minutes);
process.env.LOG_LEVEL ??= "silent";
const EMAIL = "contention@example.com";
const PASSWORD = "correct horse battery staple";

type Stats = { p50: number; p99: number; n: number; errors: number };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** `total` requests, `concurrency` at a time; latency in ms of each. */
async function load(url: string, headers: Record<string, string>, total: number, concurrency: number): Promise<Stats> {
  const times: number[] = [];
  let errors = 0;
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < total) {
        started += 1;
        const t0 = performance.now();
        const res = await fetch(url, { headers }).catch(() => undefined);
        await res?.arrayBuffer().catch(() => undefined);
        if (!res || res.status !== 200) errors += 1;
        times.push(performance.now() - t0);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), n: times.length, errors };
}

async function signIn(url: string): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const res = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: url },
    body: new URLSearchParams({ csrfToken, email: EMAIL, password: PASSWORD, json: "true" }),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`sign-in failed (${res.status})`);
  return session.split(";")[0];
}

type Round = { nice: number; idle: { api: Stats; page: Stats }; busy: { api: Stats; page: Stats }; recognizedInSec: number; failedUploads: number };

async function round(nice: number, wav: string): Promise<Round> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "vd-contention-"));
  const database = await createEmptyDatabase("postgres");
  await migrateDatabase(database.url);
  const env = { DATA_DIR: dataDir, DATABASE_URL: database.url };
  let server: RunningServer | undefined;
  try {
    const user = await runScript("admin.ts", ["create-user", "--email", EMAIL, "--password", PASSWORD], env);
    if (user.code !== 0) throw new Error(user.stderr);
    server = await startServer({
      ...env,
      LOG_LEVEL: "warn",
      TRANSCRIBE_ENGINE: "pocketsphinx",
      RECOGNIZER_NICE: String(nice),
      TRANSCRIBE_QUEUE_MAX: String(UPLOADS * 4),
      RATE_LIMIT_API_PER_MINUTE: "0",
      RATE_LIMIT_AUDIO_SECONDS_PER_HOUR: "0",
    });
    const key = (await runScript("admin.ts", ["create-key", "--email", EMAIL], env)).stdout.trimEnd().split("\n").at(-1)!;
    const auth = { authorization: `Bearer ${key}` };
    for (let i = 0; i < 100; i++) {
      await fetch(`${server.url}/api/v1/dictionary/add`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ misspelling: `word ${i}`, correct_spelling: `Word${i}` }),
      });
    }
    const cookie = await signIn(server.url);
    const api = `${server.url}/api/v1/dictionary`;
    const page = `${server.url}/transcripts`;
    const measure = async () => ({ api: await load(api, auth, 600, 200), page: await load(page, { cookie }, 100, 20) });
    await measure(); // warm-up: routes loaded, caches filled
    const idle = await measure();

    const audio = await readFile(wav);
    const started = performance.now();
    let failedUploads = 0;
    const uploads = Array.from({ length: UPLOADS }, async (_, i) => {
      const body = new FormData();
      body.set("audio", new Blob([new Uint8Array(audio)], { type: "audio/wav" }), `long-${i}.wav`);
      const res = await fetch(`${server!.url}/transcribe`, { method: "POST", headers: { ...auth, "Idempotency-Key": `contention-${nice}-${i}` }, body });
      if (res.status !== 200) {
        failedUploads += 1;
        console.error(`upload ${i}: ${res.status} ${(await res.text()).slice(0, 200)}`);
      } else await res.arrayBuffer();
    });
    await new Promise((r) => setTimeout(r, 8_000)); // decoded and recognizing
    const busy = await measure();
    await Promise.all(uploads);
    return { nice, idle, busy, recognizedInSec: (performance.now() - started) / 1000, failedUploads };
  } finally {
    await server?.stop();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const dir = await mkdtemp(path.join(tmpdir(), "vd-contention-audio-"));
try {
  const wav = await loopedSpeech(dir, MINUTES * 60);
  const rounds: Round[] = [];
  for (const nice of [10, 0]) {
    console.error(`RECOGNIZER_NICE=${nice}: ${UPLOADS} uploads of ${MINUTES} min each…`);
    rounds.push(await round(nice, wav));
  }
  const ms = (n: number) => `${n.toFixed(0)}`.padStart(6);
  console.log(`\n${UPLOADS} recordings of ${MINUTES} min recognized (PocketSphinx) while measuring; API: GET /api/v1/dictionary ×600, 200 at once; page: Notes ×100, 20 at once`);
  console.log(`${"recognizers".padEnd(18)} ${"what".padEnd(6)} ${"idle p50".padStart(8)} ${"idle p99".padStart(8)} ${"busy p50".padStart(8)} ${"busy p99".padStart(8)} ${"p99 ×".padStart(6)}  errors`);
  for (const r of rounds) {
    for (const what of ["api", "page"] as const) {
      const idle = r.idle[what];
      const busy = r.busy[what];
      console.log(
        `${`nice ${r.nice}`.padEnd(18)} ${what.padEnd(6)} ${ms(idle.p50)}ms ${ms(idle.p99)}ms ${ms(busy.p50)}ms ${ms(busy.p99)}ms ${(busy.p99 / idle.p99).toFixed(2).padStart(6)}  ${idle.errors + busy.errors}`,
      );
    }
    console.log(`${`nice ${r.nice}`.padEnd(18)} all ${UPLOADS} uploads text after ${r.recognizedInSec.toFixed(1)} s${r.failedUploads ? ` (${r.failedUploads} failed)` : ""}`);
  }
  const [low, normal] = rounds;
  console.log(`recognition time at nice 10 / at nice 0: ${(low.recognizedInSec / normal.recognizedInSec).toFixed(2)} (goal ≤ 1.10)`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
