// Benchmark: voice-activity detection (issue 14, item 1). The shared real speech (JFK, 11 s)
// looped with 0.5 s gaps to about 10 minutes, decoded as uploads are (16 kHz mono WAV), then:
// the model's load time, analyzeSpeech's speed (× real time, wall clock and CPU), the RSS it
// adds, and the pieces it plans; and the same scoring in one lane (one frame per model call) to
// show what the lanes buy. Numbers move with the machine's load: run it on a quiet machine.
// Run: npm run bench:vad [-- --minutes 10]
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { analyzeSpeech, loadVad, readWavPcm, speechProbabilities } from "@/lib/transcription/audio/vad.ts";

const { values } = parseArgs({ options: { minutes: { type: "string", default: "10" } } });
const MINUTES = Number(values.minutes);
const JFK = path.resolve(import.meta.dirname, "../tests/fixtures/jfk.wav");
const dir = await mkdtemp(path.join(tmpdir(), "voicedraft-bench-vad-"));
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function sox(args: string[]) {
  const made = spawnSync("sox", args);
  if (made.status !== 0) throw new Error(`sox failed: ${made.stderr}`);
}

/** Peak RSS while `run` runs, sampled every 20 ms (the model calls yield to the event loop). */
async function peakRss<T>(run: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    const result = await run();
    return { result, peak: Math.max(peak, process.memoryUsage.rss()) };
  } finally {
    clearInterval(timer);
  }
}

async function timed<T>(run: () => Promise<T>) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await run();
  const used = process.cpuUsage(cpu);
  return { result, wall: (performance.now() - started) / 1000, cpu: (used.user + used.system) / 1e6 };
}

try {
  const gap = path.join(dir, "gap.wav");
  const loop = path.join(dir, "loop.wav");
  const wav = path.join(dir, "speech.wav");
  sox(["-n", "-r", "16000", "-c", "1", "-b", "16", gap, "trim", "0", "0.5"]);
  sox([JFK, gap, loop]);
  const loopSeconds = 11.5;
  sox([loop, wav, "repeat", String(Math.max(0, Math.round((MINUTES * 60) / loopSeconds) - 1))]);
  const durationSec = Number(spawnSync("soxi", ["-D", wav]).stdout.toString());
  console.log(`audio: the shared speech looped, ${(durationSec / 60).toFixed(1)} min (${durationSec.toFixed(1)} s)`);

  const rssStart = process.memoryUsage.rss();
  const load = await timed(() => loadVad());
  const rssLoaded = process.memoryUsage.rss();
  console.log(`model load: ${(load.wall * 1000).toFixed(0)} ms; RSS ${mb(rssStart)} → ${mb(rssLoaded)} (+${mb(rssLoaded - rssStart)})`);

  const { result: run, peak } = await peakRss(() => timed(() => analyzeSpeech(wav, durationSec)));
  const { spans, pieces, speechSeconds } = run.result;
  console.log(
    `analyzeSpeech (lanes): ${run.wall.toFixed(2)} s wall = ${(durationSec / run.wall).toFixed(0)}× real time; ` +
      `CPU ${run.cpu.toFixed(2)} s = ${(durationSec / run.cpu).toFixed(0)}× real time per core; peak RSS +${mb(peak - rssLoaded)} over the loaded model`,
  );
  const lengths = pieces.map((p) => p.end - p.start).sort((a, b) => a - b);
  const recognized = lengths.reduce((a, b) => a + b, 0);
  console.log(
    `speech: ${spans.length} spans, ${speechSeconds.toFixed(1)} s; pieces: ${pieces.length}, lengths min ${lengths[0].toFixed(1)} s, ` +
      `median ${lengths[Math.floor(lengths.length / 2)].toFixed(1)} s, max ${lengths.at(-1)!.toFixed(1)} s; ` +
      `${recognized.toFixed(1)} s of ${durationSec.toFixed(1)} s go to the recognizer`,
  );
  console.log(`pieces: ${pieces.map((p) => `${p.start.toFixed(1)}–${p.end.toFixed(1)}`).join(", ")}`);

  const pcm = await readWavPcm(wav);
  const single = await timed(() => speechProbabilities(pcm, { maxLanes: 1 }));
  console.log(
    `one lane (a frame per call): ${single.wall.toFixed(2)} s wall = ${(durationSec / single.wall).toFixed(0)}× real time; ` +
      `CPU ${single.cpu.toFixed(2)} s = ${(durationSec / single.cpu).toFixed(0)}× real time per core`,
  );
  console.log(`whole recording as floats in memory (readWavPcm, not used by analyzeSpeech): ${mb(pcm.byteLength)}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
