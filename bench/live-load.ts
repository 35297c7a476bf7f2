// npm run bench:live-load — does a busy server keep a live recording's captions and its Stop →
// text? One recording (BENCH_SECONDS of the shipped speech with pauses, default 60) is sent to a real
// `npm start` as a phone sends it: a second of WebM/Opus each second, in real time, reading the
// captions in each answer and in a request that waits for the next ones (as the app does). First
// alone; then beside two other live recordings made the same way
// and 40 API clients reading and searching notes as fast as they are answered (on one key, or
// BENCH_API_KEYS). Prints, for each:
// Stop → text (the finish request), the captions' delay (for each answer whose words reach further
// into the recording, pieces or provisional_text, seconds since the speech it reaches to was said:
// median and worst), the API clients' requests and
// their 5xx; the ratios under load to alone; and each also as a ratio to bare PocketSphinx on
// jfk.wav measured in the same run (machines here differ 2× in speed). The API clients run in a
// process of their own at the lowest CPU priority (BENCH_CLIENTS_NICE, default 19), as clients on
// other machines would take none of the server's cores.
//
// BENCH_LOAD=writer (npm run bench:live-load -- --beside-writer): the load is the model on this
// machine writing instead (issue 67: a live recording's captions and Stop → text within 1.5× of
// alone while the model writes): the server runs the cost model of Qwen2.5-1.5B-Instruct
// (bench/cost-model-gguf.ts: the real model's cost per token) and, while the phone records,
// another person asks for 16 rewrites of a 150-word note at once, and the phone's own note before
// it is still being written about (its insights). No API clients and no other phones then.
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { bareJfkSeconds, captionDelays, JFK as JFK_WAV, loopedSpeech, speechSpans } from "./speech.ts";
import { captionsReach } from "@/lib/transcription/live/captions-reach.ts";
import { runScript, startServer } from "@/tests/support/processes.ts";
import { costModelGguf } from "./cost-model-gguf.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const API_CLIENTS = Number(process.env.BENCH_API_CLIENTS ?? 40);
// The API clients stand in for people on other machines: here they run at the lowest priority, so
// that the cores they take are not the server's (BENCH_CLIENTS_NICE=0: beside it, as equals).
const CLIENTS_NICE = Number(process.env.BENCH_CLIENTS_NICE ?? 19);
// The keys the API clients share (BENCH_API_KEYS, default 1): each key may make
// RATE_LIMIT_API_PER_MINUTE requests a minute, so more keys are more of them answered, not refused.
const API_KEYS = Number(process.env.BENCH_API_KEYS ?? 1);
const BESIDE_WRITER = process.env.BENCH_LOAD === "writer" || process.argv.includes("--beside-writer");
const REWRITES = 16;
const WRITER_NOTE =
  "We moved our main database from MySQL to Postgres last week, and the migration took four hours, most of it waiting for the replica. " +
  "Kubernetes made the rollout boring, which is the point: traffic moved in two steps and nobody noticed. The surprise was connection pooling: " +
  "Postgres opens a process per connection, so our pool of two hundred used far more memory than expected, and we put PgBouncer in front of it. " +
  "What I learned: test the pool size under real load before the switch, keep the old database read-only for a week, and write the rollback plan down " +
  "before you need it. Next I want to write up the pooling story properly and share the numbers with the team on Friday.";

type Phone = { stopToText: number; updates: { at: number; reach: number }[] };

/** A phone recording live: a second of bytes each second, then Stop (finish). */
async function recordLive(url: string, key: string, id: string, webm: Buffer): Promise<Phone> {
  const second = Math.ceil(webm.length / SECONDS);
  const started = performance.now();
  let reached = 0;
  const updates: Phone["updates"] = [];
  const headers = { authorization: `Bearer ${key}` };
  // As bench:app-record counts them: each answer whose words reach further into the recording
  // (the recognized pieces, then the stream's provisional words) is an update; each phrase's delay
  // is the time from its end to the first update that reached it (captionDelays).
  type Live = { pieces?: { start: number; end: number; text: string | null }[]; provisional_until?: number | null };
  const see = ({ pieces = [], provisional_until }: Live) => {
    const now = (performance.now() - started) / 1000;
    const reach = captionsReach({ pieces, provisional_until: provisional_until ?? null });
    if (reach <= reached) return;
    reached = reach;
    updates.push({ at: now, reach });
  };
  // As the app does: beside the PATCHes, one request at a time waits for the next captions.
  const listening = new AbortController();
  let listener: Promise<void> | undefined;
  const listen = async () => {
    while (!listening.signal.aborted) {
      const res = await fetch(`${url}/api/v1/live-recordings/${id}?captions_after=${reached.toFixed(3)}&wait=20`, { headers, signal: listening.signal }).catch(() => null);
      if (!res) continue;
      if (res.ok) see((await res.json()) as Live);
      else await new Promise((r) => setTimeout(r, 1000));
    }
  };
  for (let offset = 0, i = 1; offset < webm.length; offset += second, i++) {
    // In real time: the bytes of second i are sent once second i of the recording has passed.
    const due = started + i * 1000 - performance.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
    const res = await fetch(`${url}/api/v1/live-recordings/${id}?offset=${offset}`, {
      method: "PATCH",
      headers: { ...headers, "content-type": "audio/webm;codecs=opus" },
      body: new Uint8Array(webm.subarray(offset, offset + second)),
    });
    if (res.status >= 300) throw new Error(`append: ${res.status} ${await res.text()}`);
    see((await res.json()) as Live);
    listener ??= listen();
  }
  listening.abort();
  await listener;
  const stopped = performance.now();
  // As the app does: a finish the server could not complete (5xx, 429) is tried again, twice.
  let done = await fetch(`${url}/api/v1/live-recordings/${id}/finish`, { method: "POST", headers });
  for (let retry = 0; retry < 2 && (done.status >= 500 || done.status === 429); retry++) {
    console.log(`  ${id}: finish answered ${done.status} ${(await done.text()).slice(0, 200)}; tried again`);
    await new Promise((r) => setTimeout(r, 2000));
    done = await fetch(`${url}/api/v1/live-recordings/${id}/finish`, { method: "POST", headers });
  }
  if (done.status !== 201) throw new Error(`finish: ${done.status} ${await done.text()}`);
  return { stopToText: (performance.now() - stopped) / 1000, updates };
}

/**
 * API clients reading and searching notes until `until` resolves, in a process of their own
 * (bench/api-clients.ts) at niceness BENCH_CLIENTS_NICE: requests, 429s and 5xx answers.
 */
async function apiLoad(url: string, keys: string[], clients: number, until: Promise<unknown>) {
  const child = spawn("nice", ["-n", String(CLIENTS_NICE), process.execPath, "--import", "tsx", path.join(import.meta.dirname, "api-clients.ts")], {
    env: { ...process.env, URL: url, KEYS: keys.join(","), CLIENTS: String(clients) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  const exited = new Promise((resolve) => child.on("close", resolve));
  await until.catch(() => undefined);
  child.stdin.end();
  await exited;
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { requests: number; limited: number; errors: number };
}

const median = (xs: number[]) => (xs.length ? xs[Math.floor(xs.length / 2)] : NaN);
const worst = (xs: number[]) => (xs.length ? xs.at(-1)! : NaN);
const f = (x: number) => x.toFixed(1);

const dir = await mkdtemp(path.join(tmpdir(), "vd-bench-live-load-"));
// The API's own rate limits stay on (a key's 40 clients get 429 past RATE_LIMIT_API_PER_MINUTE, as
// they would anywhere); the phones and the API clients are two people with keys of their own.
const env: Record<string, string> = { DATA_DIR: path.join(dir, "data"), DATABASE_URL: "", TRANSCRIBE_ENGINE: "pocketsphinx", OPTIMIZER: "off", RATE_LIMIT_AUDIO_SECONDS_PER_HOUR: "0" };
if (BESIDE_WRITER) Object.assign(env, { WRITER_LOCAL: "auto", WRITER_LOCAL_MODEL: await costModelGguf("qwen2.5-1.5b"), WRITER_AUTO_DOWNLOAD: "false", WRITER_TIMEOUT_SECONDS: "900" });

/**
 * Another person's rewrites of a note of theirs, all asked at once and kept asked until `until`
 * settles (the ones not answered by then are given up): how many the model wrote meanwhile.
 */
async function rewritesLoad(url: string, key: string, until: Promise<unknown>): Promise<{ written: number; refused: number; failed: number; seconds: number }> {
  const auth = { authorization: `Bearer ${key}` };
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(await readFile(JFK_WAV))], { type: "audio/wav" }), "note.wav");
  const up = await fetch(`${url}/transcribe`, { method: "POST", headers: auth, body });
  if (up.status !== 200 && up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const { id } = (await up.json()) as { id: string };
  const edit = await fetch(`${url}/api/v1/transcriptions/${id}`, { method: "PATCH", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ text: WRITER_NOTE }) });
  if (edit.status !== 200) throw new Error(`edit: ${edit.status} ${await edit.text()}`);
  const started = performance.now();
  const giveUp = new AbortController();
  const asked = Promise.all(
    Array.from({ length: REWRITES }, async (_, i) => {
      const res = await fetch(`${url}/api/v1/transcriptions/${id}/rewrites`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ style: ["email", "todo_list", "meeting_notes", "social_post"][i % 4] }),
        signal: giveUp.signal,
      }).catch(() => null);
      if (!res) return { status: 0, by: undefined };
      const json = (await res.json().catch(() => null)) as { rewrite?: { written_by?: string } } | null;
      return { status: res.status, by: json?.rewrite?.written_by };
    }),
  );
  await until.catch(() => undefined);
  giveUp.abort();
  const answers = await asked;
  return {
    written: answers.filter((a) => a.status < 300 && a.by === "local-model").length,
    refused: answers.filter((a) => a.status === 429).length,
    failed: answers.filter((a) => a.status >= 500).length,
    seconds: (performance.now() - started) / 1000,
  };
}
const wav = await loopedSpeech(dir, SECONDS);
const webmPath = path.join(dir, "speech.webm");
const encode = spawnSync("ffmpeg", ["-v", "error", "-y", "-i", wav, "-ar", "48000", "-c:a", "libopus", "-b:a", "64k", "-f", "webm", "-live", "1", webmPath]);
if (encode.status !== 0) throw new Error(`ffmpeg failed: ${encode.stderr}`);
const webm = await readFile(webmPath);

for (const email of ["phone@example.com", "load@example.com"]) {
  const user = await runScript("admin.ts", ["create-user", "--email", email, "--password", "correct horse battery staple"], env);
  if (user.code !== 0) throw new Error(user.stderr);
}
const server = await startServer(env);
try {
  const keyOf = async (email: string) => (await runScript("admin.ts", ["create-key", "--email", email], env)).stdout.trimEnd().split("\n").at(-1)!;
  const key = await keyOf("phone@example.com");
  const apiKeys = [];
  for (let k = 0; k < API_KEYS; k++) apiKeys.push(await keyOf("load@example.com"));
  const bareBefore = await bareJfkSeconds();
  const loadSaid = BESIDE_WRITER ? `the model on this machine (cost model of Qwen2.5-1.5B-Instruct) writing ${REWRITES} rewrites for another person` : `${API_CLIENTS} API clients on ${API_KEYS} key(s)`;
  console.log(`recording: ${SECONDS} s of speech with pauses (WebM/Opus, a second each second), PocketSphinx; bare PocketSphinx on jfk.wav: ${f(bareBefore)} s; load: ${loadSaid}`);
  console.log("run          Stop → text (s)  captions' delay (s, median / worst)  API requests  API 5xx");
  const spans = await speechSpans(wav);
  const delaysOf = (phone: Phone) => captionDelays(phone.updates, spans, SECONDS).sort((a, b) => a - b);
  const timeline = (phone: Phone) => phone.updates.map((u) => `${u.at.toFixed(1)}:${u.reach.toFixed(1)}`).join(" ");
  const aloneRun = await recordLive(server.url, key, "alone", webm);
  const alone = { ...aloneRun, delays: delaysOf(aloneRun) };
  console.log(`${"alone".padEnd(13)}${f(alone.stopToText).padEnd(17)}${`${f(median(alone.delays))} / ${f(worst(alone.delays))} (${alone.delays.length} phrases)`.padEnd(37)}-             -`);
  let busyRun: Phone;
  let loadSeen: string;
  if (BESIDE_WRITER) {
    // The rewrites first asked (their note uploaded and edited), then the phone starts: the model is writing throughout.
    let recorded = () => {};
    const rewrites = rewritesLoad(server.url, apiKeys[0], new Promise<void>((resolve) => (recorded = resolve)));
    await new Promise((r) => setTimeout(r, 5000));
    busyRun = await recordLive(server.url, key, "under-load", webm).finally(recorded);
    const done = await rewrites;
    loadSeen = `rewrites: ${done.written} of ${REWRITES} written by the model in the ${f(done.seconds)} s they were asked, ${done.refused} × 429, ${done.failed} × 5xx`;
  } else {
    const measured = recordLive(server.url, key, "under-load", webm);
    const others = [recordLive(server.url, key, "beside-1", webm), recordLive(server.url, key, "beside-2", webm)];
    const load = apiLoad(server.url, apiKeys, API_CLIENTS, Promise.allSettled([measured, ...others]));
    const [run, api] = await Promise.all([measured, load]);
    await Promise.all(others);
    busyRun = run;
    loadSeen = `${api.requests} (${api.limited} × 429)`.padEnd(14) + ` ${api.errors}`;
  }
  const busy = { ...busyRun, delays: delaysOf(busyRun) };
  console.log(`${"under load".padEnd(13)}${f(busy.stopToText).padEnd(17)}${`${f(median(busy.delays))} / ${f(worst(busy.delays))} (${busy.delays.length} phrases)`.padEnd(37)}${loadSeen}`);
  console.log(`  captions as they came (s into the recording: reach): alone ${timeline(alone)}`);
  console.log(`  under load ${timeline(busy)}`);
  // The server's account of each Stop (seconds to each step, and its request's time in the route) and of its stream recognizer.
  for (const line of server.output().split("\n").filter((l) => /"live recording finished"|the stream heard the rest|"route":"\/api\/v1\/live-recordings\/[^"]+\/finish"|"level":"(warn|error)"/.test(l)).slice(-16)) {
    console.log(`  server: ${line.slice(0, 300)}`);
  }
  const bare = (bareBefore + (await bareJfkSeconds())) / 2;
  const r = (x: number, y: number) => (x / y).toFixed(2);
  console.log(`under load ÷ alone: Stop → text ${r(busy.stopToText, alone.stopToText)}×, captions median ${r(median(busy.delays), median(alone.delays))}×, worst ${r(worst(busy.delays), worst(alone.delays))}× (goal ≤ ${BESIDE_WRITER ? "1.5" : "2"}×, 0 × 5xx)`);
  console.log(`÷ bare PocketSphinx on jfk.wav (${f(bare)} s, before and after): alone Stop → text ${r(alone.stopToText, bare)}×, captions ${r(median(alone.delays), bare)}× / ${r(worst(alone.delays), bare)}×; under load ${r(busy.stopToText, bare)}×, ${r(median(busy.delays), bare)}× / ${r(worst(busy.delays), bare)}×`);
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
