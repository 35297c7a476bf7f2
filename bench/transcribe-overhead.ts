// Benchmark: POST /transcribe end to end (multipart upload streamed to disk, format sniffing,
// ffmpeg decode, recognition, dictionary with 10,000 entries, response) against the bare
// recognizer on the same, already-decoded audio. Goal: overhead ratio ≤ 1.10.
// Run: npm run bench:transcribe [-- --engine pocketsphinx|whisper] [-- --runs 5]
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { engine: { type: "string", default: "pocketsphinx" }, runs: { type: "string", default: "5" } } });
process.env.TRANSCRIBE_ENGINE = values.engine;
process.env.LOG_LEVEL = "silent";
const RUNS = Number(values.runs);
const AUDIO = path.resolve(import.meta.dirname, "../tests/fixtures/jfk.wav");

const { benchUser, unmatchedEntries } = await import("./support.ts");
const { key, close } = await benchUser(unmatchedEntries(10_000));
const { recognitionEngine } = await import("@/lib/transcription/recognizers/select-engine.ts");
const { POST: transcribe } = await import("@/app/transcribe/route.ts");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (fn: () => Promise<unknown>) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};

// The recognizer's input, decoded once, outside the timed part of the bare runs.
const wav = path.join(import.meta.dirname, ".transcribe-overhead.wav");
spawnSync("ffmpeg", ["-v", "error", "-y", "-i", AUDIO, "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", wav]);
const engine = await recognitionEngine();
const audio = await readFile(AUDIO);

await engine.recognize({ wavPath: wav, durationSec: 11 }); // warm-up (whisper loads its model)
const bare: number[] = [];
const full: number[] = [];
for (let i = 0; i < RUNS; i++) {
  bare.push(await time(() => engine.recognize({ wavPath: wav, durationSec: 11 })));
  full.push(
    await time(async () => {
      const body = new FormData();
      body.set("audio", new Blob([new Uint8Array(audio)]), "jfk.wav");
      const res = await transcribe(
        new Request("http://bench/transcribe", { method: "POST", body, headers: { authorization: `Bearer ${key}` } }),
        { params: Promise.resolve({}) },
      );
      if (res.status !== 200) throw new Error(`transcribe answered ${res.status}: ${await res.text()}`);
      await res.json();
    }),
  );
}
spawnSync("rm", ["-f", wav]);

console.log(`engine: ${engine.name}; audio: jfk.wav (11.0 s); dictionary: 10,000 entries; runs: ${RUNS}`);
console.log(`bare recognizer:     median ${median(bare).toFixed(0)} ms  (${bare.map((t) => t.toFixed(0)).join(", ")})`);
console.log(`POST /transcribe:    median ${median(full).toFixed(0)} ms  (${full.map((t) => t.toFixed(0)).join(", ")})`);
console.log(`overhead ratio:      ${(median(full) / median(bare)).toFixed(3)} (goal ≤ 1.10)`);
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(1)} MB`);
await close();
