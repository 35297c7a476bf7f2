// Benchmark: time to the first streamed text of a long upload. Sends an N-minute recording
// (default 20; whole loops of the shared real speech, as a 64 kbit/s mp3) to a started server's
// POST /transcribe with Accept: text/event-stream and prints the seconds from the request to the
// stream opening (upload received), to the first transcript.text.delta and to transcript.text.done,
// and the number of deltas. Beside it, the bare recognizer (pocketsphinx_continuous) on one
// piece's worth of the same audio (RECOGNITION_PIECE_SECONDS), since the goal is: first delta
// ≤ the recognition time of one piece + 2 s. Without recognition in pieces the first delta is the
// whole text, so it comes only at the end.
//
// Starts the real app (npm start's launcher, a fresh DATA_DIR, PocketSphinx; set NEXT_DIST_DIR to
// build beside other builds), or uses yours: --url http://… --key vd_… .
// Run: npm run bench:first-delta [-- --minutes 20] [-- --url U --key K]
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { runScript, startServer, type RunningServer } from "@/tests/support/processes.ts";
import { sseFrames } from "@/tests/support/sse.ts";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "20" },
    url: { type: "string" },
    key: { type: "string" },
    "piece-seconds": { type: "string", default: process.env.RECOGNITION_PIECE_SECONDS ?? "60" },
  },
});
const SPEECH_SECONDS = 11;
const LOOPS = Math.max(1, Math.round((Number(values.minutes) * 60) / SPEECH_SECONDS));
const PIECE_SECONDS = Number(values["piece-seconds"]);
const SPEECH = path.resolve(import.meta.dirname, "../tests/fixtures/jfk.wav");
const MODEL = "/usr/share/pocketsphinx/model/en-us";
const work = await mkdtemp(path.join(tmpdir(), "voicedraft-bench-first-delta-"));
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function ffmpeg(args: string[]): void {
  const run = spawnSync("ffmpeg", ["-nostdin", "-v", "error", "-y", ...args]);
  if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr}`);
}

/** The bare recognizer on a WAV file: wall milliseconds. */
function bareRecognition(wav: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("pocketsphinx_continuous", [
      "-infile", wav, "-hmm", `${MODEL}/en-us`, "-lm", `${MODEL}/en-us.lm.bin`, "-dict", `${MODEL}/cmudict-en-us.dict`,
      "-samprate", "16000", "-logfn", "/dev/null",
    ], { stdio: ["ignore", "ignore", "ignore"] });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`pocketsphinx exited with ${code}`))));
  });
}

/** Starts the app on a fresh DATA_DIR and makes a user with a key. */
async function startApp(): Promise<{ server: RunningServer; url: string; key: string }> {
  const env = {
    DATA_DIR: path.join(work, "data"),
    TRANSCRIBE_ENGINE: "pocketsphinx",
    WHISPER_AUTO_DOWNLOAD: "false",
    WRITER_AUTO_DOWNLOAD: "false",
    OPTIMIZER: "off",
    LOG_LEVEL: "warn",
    MAX_AUDIO_SECONDS: String(LOOPS * SPEECH_SECONDS + 60),
    RATE_LIMIT_AUDIO_SECONDS_PER_HOUR: "0",
  };
  const server = await startServer(env, 900_000);
  const email = "bench-first-delta@example.com";
  const user = await runScript("admin.ts", ["create-user", "--email", email, "--password-stdin"], env, "correct horse battery staple\n");
  if (user.code !== 0) throw new Error(`admin create-user failed: ${user.stderr}`);
  const created = await runScript("admin.ts", ["create-key", "--email", email], env);
  if (created.code !== 0) throw new Error(`admin create-key failed: ${created.stderr}`);
  return { server, url: server.url, key: created.stdout.trim().split("\n").at(-1)! };
}

type Timeline = { opened: number; firstDelta: number | null; done: number | null; deltas: number; error: string | null; text: string };

/** Uploads the recording with Accept: text/event-stream and times the events as they arrive. */
async function streamUpload(url: string, key: string, recording: string): Promise<Timeline> {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(await readFile(recording))]), "long.mp3");
  const started = performance.now();
  const res = await fetch(`${url}/transcribe`, {
    method: "POST",
    body,
    headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" },
  });
  const timeline: Timeline = { opened: performance.now() - started, firstDelta: null, done: null, deltas: 0, error: null, text: "" };
  if (!res.headers.get("content-type")?.startsWith("text/event-stream")) {
    throw new Error(`no stream: ${res.status} ${await res.text()}`);
  }
  for await (const frame of sseFrames(res.body!)) {
    if (frame.data === null) continue; // a keep-alive comment
    const event = JSON.parse(frame.data);
    const at = performance.now() - started;
    if (event.type === "transcript.text.delta") {
      timeline.deltas += 1;
      timeline.firstDelta ??= at;
    } else if (event.type === "transcript.text.done") {
      timeline.done = at;
      timeline.text = event.text;
    } else if (event.type === "error") {
      timeline.error = `${event.error.code}: ${event.error.message}`;
    }
  }
  return timeline;
}

let server: RunningServer | undefined;
try {
  const recording = path.join(work, "long.mp3");
  ffmpeg(["-stream_loop", String(LOOPS - 1), "-i", SPEECH, "-ac", "1", "-b:a", "64k", recording]);
  const piece = path.join(work, "piece.wav");
  ffmpeg(["-i", recording, "-t", String(PIECE_SECONDS), "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", piece]);
  const pieceMs = await bareRecognition(piece);

  const target = values.url && values.key ? { url: values.url, key: values.key } : await startApp();
  server = "server" in target ? target.server : undefined;
  const t = await streamUpload(target.url, target.key, recording);

  const minutes = (LOOPS * SPEECH_SECONDS) / 60;
  console.log(`recording: ${minutes.toFixed(1)} min (${LOOPS} loops of the shared speech, mp3), POST /transcribe with Accept: text/event-stream, pocketsphinx`);
  console.log(`bare pocketsphinx_continuous on one piece (${PIECE_SECONDS} s of it): ${s(pieceMs)} → goal: first delta ≤ ${s(pieceMs + 2000)} after the upload`);
  if (t.error) console.log(`the stream ended with an error event: ${t.error}`);
  console.log(`stream opened (upload received) after ${s(t.opened)}`);
  if (t.firstDelta !== null) {
    const afterUpload = t.firstDelta - t.opened;
    const verdict = afterUpload <= pieceMs + 2000 ? "meets the goal" : "misses the goal";
    console.log(`first delta after ${s(t.firstDelta)} (${s(afterUpload)} after the upload: ${verdict})`);
  }
  if (t.done !== null) console.log(`done after ${s(t.done)}; ${t.deltas} deltas; ${t.text.split(/\s+/).filter(Boolean).length} words`);
  console.log("(times on a shared machine are noisy; run it on an idle one for numbers to compare)");
} finally {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
}
