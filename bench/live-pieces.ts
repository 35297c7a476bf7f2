// npm run bench:live-pieces — does recognizing a recording in short live pieces cost accuracy?
// The shipped speech (jfk.wav, its reference transcript), looped to BENCH_SECONDS (default 120),
// twice: with a 1.5 s pause after each sentence (as people pause), and with none (the cuts must
// then fall in the speech's own short pauses). Each is encoded as MediaRecorder writes it
// (WebM/Opus, 64 kbit/s) and sent through the live-recording use cases a second at a time, each
// cut awaited (as on a server that keeps up), then finished; its word error rate is printed beside
// PocketSphinx's on the whole file (the same WebM, decoded), with the pieces' count and lengths,
// and the note's final text after the second pass (hear-again.ts: improved, unchanged, or none).
// Each also shifted by a little leading silence (BENCH_SHIFTS), with the means per speech and of
// both. BENCH_SPEECH=with|continuous runs one of the two; BENCH_VERBOSE=1 prints each piece's
// place and text, and both texts.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { barePocketsphinx, JFK_REFERENCE, wer } from "./speech.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
process.env.LOG_LEVEL = "silent";
process.env.OPTIMIZER = "off";
process.env.JOBS_POLL_SECONDS = "0.5";
process.env.RATE_LIMIT_AUDIO_SECONDS_PER_HOUR = "0";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 120);
const SPEECH = path.resolve(import.meta.dirname, "../tests/fixtures/jfk.wav");
const work = await mkdtemp(path.join(tmpdir(), "vd-bench-live-"));
process.env.DATA_DIR = path.join(work, "data");


function ffmpeg(args: string[]): void {
  const run = spawnSync("ffmpeg", ["-v", "error", "-y", ...args]);
  if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr}`);
}

const { liveBench } = await import("./live-support.ts");
const live = await liveBench();
const { prisma } = live;

// Where a cut falls moves PocketSphinx's error rate by several points (docs/benchmarks.md: a cut
// moved by 4 ms changed ten pieces from 35.9% to 43.6%), and so does where the whole file's own
// frames fall. Each speech is therefore also measured shifted by a little leading silence
// (BENCH_SHIFTS, seconds, default 0,0.33,0.67), and the means are what to compare.
const SHIFTS = (process.env.BENCH_SHIFTS ?? "0,0.33,0.67").split(",").map(Number);

async function measure(label: string, pause: number, shift: number) {
  const name = `${label.replace(/\W/g, "-")}-${shift}`;
  const wav = path.join(work, `${name}.wav`);
  const loops = Math.max(1, Math.round(SECONDS / (11 + pause)));
  const filter = pause
    ? `[0:a]aresample=16000,aformat=channel_layouts=mono[s];[s][1:a]concat=n=2:v=0:a=1,aloop=loop=${loops - 1}:size=2e9[looped]`
    : `[0:a]aresample=16000,aformat=channel_layouts=mono,aloop=loop=${loops - 1}:size=2e9[looped]`;
  const lead = shift ? `;[2:a][looped]concat=n=2:v=0:a=1[out]` : `;[looped]anull[out]`;
  ffmpeg([
    "-i", SPEECH, "-f", "lavfi", "-t", String(pause || 0.01), "-i", "anullsrc=r=16000:cl=mono",
    "-f", "lavfi", "-t", String(shift || 0.01), "-i", "anullsrc=r=16000:cl=mono",
    "-filter_complex", filter + lead, "-map", "[out]", "-ac", "1", "-ar", "16000", wav,
  ]);
  const webmPath = path.join(work, `${name}.webm`);
  ffmpeg(["-i", wav, "-ar", "48000", "-c:a", "libopus", "-b:a", "64k", "-f", "webm", "-live", "1", webmPath]);
  const reference = Array.from({ length: loops }, () => JFK_REFERENCE).join(" ");
  // The whole file as the server hears it: the same compressed recording, decoded.
  const decoded = path.join(work, `${name}-decoded.wav`);
  ffmpeg(["-i", webmPath, "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", decoded]);
  const whole = await barePocketsphinx(decoded);

  const webm = await readFile(webmPath);
  const id = `bench-${name}`;
  const second = Math.ceil(webm.length / (loops * (11 + pause) + shift));
  await live.send(id, webm, second);
  const { result } = await live.finish(id);
  // The second pass (hear-again.ts), where it runs: the note's final text.
  const { whenHeardAgain } = await import("@/lib/transcription/live/hear-again.ts");
  const outcome = (await whenHeardAgain(result.id)) ?? "none";
  const final = (await prisma.note.findUniqueOrThrow({ where: { id: result.id }, select: { text: true } })).text;
  const row = await live.recording(id);
  const pieces = await prisma.recognitionPiece.findMany({ where: { workflowId: row.workflowId }, orderBy: { index: "asc" }, select: { startSec: true, endSec: true, result: true } });
  if (process.env.BENCH_VERBOSE) {
    // "(stream)": the live stream's words, taken at Stop; the second pass hears the piece again.
    for (const p of pieces) {
      const { text, provisional } = (p.result ?? {}) as { text?: string; provisional?: boolean };
      console.log(`  ${p.startSec.toFixed(2)}–${p.endSec.toFixed(2)}${provisional ? " (stream)" : ""}: ${text}`);
    }
    console.log(`  whole: ${whole}\n  live:  ${result.text}\n  final: ${final}`);
  }
  const lengths = pieces.map((p) => p.endSec - p.startSec).sort((a, b) => a - b);
  return { whole: wer(whole, reference), live: wer(result.text, reference), final: wer(final, reference), outcome, lengths };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`speech: jfk.wav looped to ${SECONDS} s, shifted by ${SHIFTS.join(", ")} s of leading silence; WER against its transcript`);
console.log("speech            shift  whole-file WER  live WER  final WER (second pass)  pieces  piece length (s, min/median/max)");
try {
  const all: { whole: number; live: number; final: number }[] = [];
  for (const [label, pause] of [["with pauses", 1.5], ["continuous", 0]] as const) {
    if (process.env.BENCH_SPEECH && !label.startsWith(process.env.BENCH_SPEECH)) continue;
    const rows = [];
    for (const shift of SHIFTS) {
      const { whole, live: heard, final, outcome, lengths } = await measure(label, pause, shift);
      rows.push({ whole, live: heard, final });
      const spread = `${lengths[0].toFixed(1)} / ${lengths[Math.floor(lengths.length / 2)].toFixed(1)} / ${lengths.at(-1)!.toFixed(1)}`;
      console.log(`${label.padEnd(18)}${shift.toFixed(2).padEnd(7)}${pct(whole).padEnd(16)}${pct(heard).padEnd(10)}${`${pct(final)} (${outcome})`.padEnd(25)}${String(lengths.length).padEnd(8)}${spread}`);
    }
    const w = mean(rows.map((r) => r.whole));
    const l = mean(rows.map((r) => r.live));
    const f = mean(rows.map((r) => r.final));
    console.log(`${label.padEnd(18)}${"mean".padEnd(7)}${pct(w).padEnd(16)}${pct(l).padEnd(10)}${pct(f).padEnd(25)}live − whole: ${((l - w) * 100).toFixed(1)} points; final − whole: ${((f - w) * 100).toFixed(1)}`);
    all.push(...rows);
  }
  if (all.length > SHIFTS.length) {
    const w = mean(all.map((r) => r.whole));
    const l = mean(all.map((r) => r.live));
    const f = mean(all.map((r) => r.final));
    console.log(`${"both".padEnd(18)}${"mean".padEnd(7)}${pct(w).padEnd(16)}${pct(l).padEnd(10)}${pct(f).padEnd(25)}live − whole: ${((l - w) * 100).toFixed(1)} points; final − whole: ${((f - w) * 100).toFixed(1)}`);
  }
} finally {
  await live.stop();
  await rm(work, { recursive: true, force: true });
}
