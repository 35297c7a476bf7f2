// Benchmark: what one over-long upload costs to decode (issue 11, item 7). A small Opus file of
// hours of silence, decoded as before (ffmpeg picks the demuxer, stops only at the limit) and as
// now (decodeAudio: the header's duration refuses it first); and a raw ADTS file, whose duration
// no header states, decoded now (stops just past the limit). Prints time and PCM bytes written.
// Run: npm run bench:decode [-- --hours 10] [-- --limit 7200]  (making 10 h of Opus takes minutes)
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { decodeAudio } from "@/lib/transcription/audio/decode-audio.ts";
import type { AudioFormat } from "@/lib/transcription/audio/audio-format.ts";

const { values } = parseArgs({ options: { hours: { type: "string", default: "10" }, limit: { type: "string", default: "7200" } } });
const HOURS = Number(values.hours);
const LIMIT = Number(values.limit);
const dir = await mkdtemp(path.join(tmpdir(), "voicedraft-bench-decode-"));
const sizeOf = async (file: string) => (await stat(file).catch(() => ({ size: 0 }))).size;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function make(name: string, args: string[]): string {
  const file = path.join(dir, name);
  const started = performance.now();
  const made = spawnSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=48000:cl=mono", "-t", String(HOURS * 3600), ...args, file]);
  if (made.status !== 0) throw new Error(`ffmpeg failed: ${made.stderr}`);
  console.log(`made ${name}: ${HOURS} h in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return file;
}

async function decodeNow(file: string, format: AudioFormat) {
  const out = path.join(dir, `now-${format}.wav`);
  const started = performance.now();
  const result = await decodeAudio(file, out, { ffmpeg: "ffmpeg", format, maxSeconds: LIMIT, concurrency: 2, maxWaiting: 16 })
    .then(() => "decoded")
    .catch((err: { code?: string }) => err.code ?? String(err));
  console.log(`  now (${format}): ${result} in ${((performance.now() - started) / 1000).toFixed(2)} s, PCM written ${mb(await sizeOf(out))}`);
  await rm(out, { force: true });
}

try {
  const opus = make("silence.ogg", ["-c:a", "libopus", "-b:a", "6k", "-application", "voip"]);
  console.log(`Opus file: ${mb(await sizeOf(opus))}, limit ${LIMIT} s`);
  const before = path.join(dir, "before.wav");
  const started = performance.now();
  spawnSync("ffmpeg", ["-nostdin", "-v", "error", "-i", opus, "-map", "0:a:0", "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", "-t", String(LIMIT + 1), "-f", "wav", "-y", before]);
  console.log(`  before: ${((performance.now() - started) / 1000).toFixed(2)} s, PCM written ${mb(await sizeOf(before))}`);
  await rm(before, { force: true });
  await decodeNow(opus, "ogg");

  const adts = make("silence.aac", ["-c:a", "aac", "-b:a", "8k", "-ar", "16000", "-f", "adts"]);
  console.log(`ADTS file (no duration in any header): ${mb(await sizeOf(adts))}`);
  await decodeNow(adts, "aac");
} finally {
  await rm(dir, { recursive: true, force: true });
}
