// npm run bench:live-finish — the server's side of Stop for a long live recording: a recording of
// BENCH_SECONDS (default 300) of the shipped speech with pauses, sent as MediaRecorder writes it
// (WebM/Opus) a second at a time through the live-recording use cases, each piece recognized as
// on a server that keeps up; then the last 2 s arrive and POST …/finish runs. Prints finish's
// seconds (what the person waits for on the server after Stop) and the recording's pieces.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { loopedSpeech } from "./speech.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
process.env.LOG_LEVEL = "silent";
process.env.OPTIMIZER = "off";
process.env.JOBS_POLL_SECONDS = "0.5";
process.env.RATE_LIMIT_AUDIO_SECONDS_PER_HOUR = "0";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const work = await mkdtemp(path.join(tmpdir(), "vd-bench-finish-"));
process.env.DATA_DIR = path.join(work, "data");

const wav = await loopedSpeech(work, SECONDS);
const webmPath = path.join(work, "speech.webm");
const encode = spawnSync("ffmpeg", ["-v", "error", "-y", "-i", wav, "-ar", "48000", "-c:a", "libopus", "-b:a", "64k", "-f", "webm", "-live", "1", webmPath]);
if (encode.status !== 0) throw new Error(`ffmpeg failed: ${encode.stderr}`);
const webm = await readFile(webmPath);

const { benchUser } = await import("./support.ts");
const { prisma, close } = await benchUser([]);
const user = await prisma.user.findFirstOrThrow();
const { startJobWorkers } = await import("@/lib/jobs/workers.ts");
const { recognizePieceJob } = await import("@/lib/transcription/recognition/recognize-pieces-job.ts");
const { appendLiveAudio } = await import("@/lib/transcription/live/append-live-audio.ts");
const { cutLivePieces } = await import("@/lib/transcription/live/cut-live-pieces.ts");
const { finishLiveRecording } = await import("@/lib/transcription/live/finish-live-recording.ts");
const { closeJobQueue } = await import("@/lib/jobs/queue.ts");
const workers = await startJobWorkers([recognizePieceJob], []);

async function piecesDone(workflowId: string): Promise<boolean> {
  const failed = await prisma.recognitionPiece.count({ where: { workflowId, status: "failed" } });
  if (failed) throw new Error(`${failed} pieces failed to be recognized`);
  return (await prisma.recognitionPiece.count({ where: { workflowId, status: { not: "completed" } } })) === 0;
}

console.log(`recording: ${SECONDS} s of speech with pauses (WebM/Opus 64 kbit/s), PocketSphinx`);
try {
  for (let run = 1; run <= RUNS; run++) {
    const id = `bench-finish-${run}`;
    const second = Math.ceil(webm.length / SECONDS);
    const lastBytes = second * 2;
    for (let offset = 0; offset < webm.length - lastBytes; offset += second) {
      await appendLiveAudio({ userId: user.id, id, offset, bytes: webm.subarray(offset, Math.min(offset + second, webm.length - lastBytes)), mimeType: "audio/webm" });
      const row = await prisma.liveRecording.findUniqueOrThrow({ where: { userId_id: { userId: user.id, id } } });
      await cutLivePieces(row);
      if (process.env.BENCH_VERBOSE && offset % (second * 30) === 0) console.log(`  sent ${Math.round(offset / second)} s; ${row.piecesCut} pieces cut`);
    }
    const row = await prisma.liveRecording.findUniqueOrThrow({ where: { userId_id: { userId: user.id, id } } });
    while (!(await piecesDone(row.workflowId))) {
      await new Promise((r) => setTimeout(r, 1000));
      if (process.env.BENCH_VERBOSE) console.log("  waiting:", JSON.stringify(await prisma.recognitionPiece.groupBy({ by: ["status"], where: { workflowId: row.workflowId }, _count: true })));
    }
    const atStop = await prisma.liveRecording.findUniqueOrThrow({ where: { userId_id: { userId: user.id, id } } });
    const started = performance.now();
    await appendLiveAudio({ userId: user.id, id, offset: webm.length - lastBytes, bytes: webm.subarray(webm.length - lastBytes), mimeType: "audio/webm" });
    const { result } = await finishLiveRecording({ userId: user.id, id });
    const seconds = (performance.now() - started) / 1000;
    const pieces = await prisma.recognitionPiece.count({ where: { workflowId: row.workflowId } });
    const rest = result.duration - atStop.heardUntil;
    console.log(
      `run ${run}: last append + finish ${seconds.toFixed(2)} s; ${rest.toFixed(1)} s not yet heard at Stop, in ${pieces - atStop.piecesCut} last pieces ` +
        `(${pieces} in all, ${result.duration.toFixed(1)} s of audio, audio kept: ${Boolean(result.audio)})`,
    );
  }
} finally {
  await workers.stop();
  await closeJobQueue();
  await close();
  await rm(work, { recursive: true, force: true });
}
