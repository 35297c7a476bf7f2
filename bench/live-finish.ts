// npm run bench:live-finish — the server's side of Stop for a long live recording: a recording of
// BENCH_SECONDS (default 300) of the shipped speech with pauses, sent as MediaRecorder writes it
// (WebM/Opus) a second at a time through the live-recording use cases, each piece recognized as
// on a server that keeps up; then the last 2 s arrive and POST …/finish runs. Twice: stopped in
// the pause after a sentence, and mid-sentence. Prints finish's seconds (what the person waits
// for on the server after Stop), the seconds not yet heard at Stop and the last pieces they became.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { loopedSpeech } from "./speech.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
process.env.LOG_LEVEL ??= "silent"; // LOG_LEVEL=debug shows each Stop's phases
process.env.OPTIMIZER = "off";
process.env.JOBS_POLL_SECONDS = "0.5";
process.env.RATE_LIMIT_AUDIO_SECONDS_PER_HOUR = "0";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
const work = await mkdtemp(path.join(tmpdir(), "vd-bench-finish-"));
process.env.DATA_DIR = path.join(work, "data");

const wav = await loopedSpeech(work, SECONDS);
const webmPath = path.join(work, "speech.webm");
const encode = spawnSync("ffmpeg", ["-v", "error", "-y", "-i", wav, "-ar", "48000", "-c:a", "libopus", "-b:a", "64k", "-f", "webm", "-live", "1", webmPath]);
if (encode.status !== 0) throw new Error(`ffmpeg failed: ${encode.stderr}`);
const webm = await readFile(webmPath);

const { liveBench } = await import("./live-support.ts");
const live = await liveBench();
const { prisma } = live;

async function piecesDone(workflowId: string): Promise<boolean> {
  const failed = await prisma.recognitionPiece.count({ where: { workflowId, status: "failed" } });
  if (failed) throw new Error(`${failed} pieces failed to be recognized`);
  return (await prisma.recognitionPiece.count({ where: { workflowId, status: { not: "completed" } } })) === 0;
}

console.log(`recording: ${SECONDS} s of speech with pauses (WebM/Opus 64 kbit/s), PocketSphinx`);
try {
  // Stopped in the pause after a sentence (the whole recording), or mid-sentence (4 s before its end).
  for (const [run, [label, end]] of ([["after a pause", webm.length], ["mid-sentence", Math.round((webm.length * (SECONDS - 4)) / SECONDS)]] as const).entries()) {
    const id = `bench-finish-${run}`;
    const second = Math.ceil(webm.length / SECONDS);
    const lastBytes = second * 2;
    await live.send(id, webm, second, end - lastBytes);
    const row = await live.recording(id);
    // As on a server that kept up: every piece cut so far is recognized when Stop comes.
    while (!(await piecesDone(row.workflowId))) await new Promise((r) => setTimeout(r, 500));
    const atStop = await live.recording(id);
    const started = performance.now();
    await live.append(id, webm, end - lastBytes, end);
    const { result } = await live.finish(id);
    const seconds = (performance.now() - started) / 1000;
    const pieces = await prisma.recognitionPiece.count({ where: { workflowId: row.workflowId } });
    const rest = result.duration - atStop.heardUntil;
    console.log(
      `Stop ${label}: last append + finish ${seconds.toFixed(2)} s; ${rest.toFixed(1)} s not yet heard at Stop, in ${pieces - atStop.piecesCut} last pieces ` +
        `(${pieces} in all, ${result.duration.toFixed(1)} s of audio, audio kept: ${Boolean(result.audio)})`,
    );
  }
} finally {
  await live.stop();
  await rm(work, { recursive: true, force: true });
}
