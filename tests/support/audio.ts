import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

export const JFK_WAV = path.resolve(import.meta.dirname, "../fixtures/jfk.wav");
export const JFK_MP3 = path.resolve(import.meta.dirname, "../fixtures/jfk.mp3");

let dir: Promise<string> | undefined;
let made: string | undefined;
// Removed when the process ends: after its test file under `node --test` (a process per file), after
// its worker's files under Playwright (whose workers do not load node:test).
process.on("exit", () => {
  if (made) rmSync(made, { recursive: true, force: true });
});
function workDir(): Promise<string> {
  dir ??= mkdtemp(path.join(tmpdir(), "vd-audio-fixtures-")).then((created) => (made = created));
  return dir;
}

/** Runs ffmpeg (from the test, on the shared real speech) and returns the file's path (removed after the test file). */
export async function ffmpegFixtureFile(name: string, args: string[]): Promise<string> {
  const out = path.join(await workDir(), name);
  await exec("ffmpeg", ["-nostdin", "-v", "error", "-y", ...args, out]);
  return out;
}

/** Runs ffmpeg (from the test, on the shared real speech) and returns the file's bytes. */
export async function ffmpegFixture(name: string, args: string[]): Promise<Buffer> {
  return readFile(await ffmpegFixtureFile(name, args));
}

/** The JFK speech re-encoded into another container/codec. */
export const jfkAs = (name: string, codecArgs: string[]) => ffmpegFixture(name, ["-i", JFK_WAV, ...codecArgs]);

/** How long jfkOpening() is, in seconds. */
export const JFK_OPENING_SECONDS = 3;
let opening: Promise<string> | undefined;
/**
 * The path of the first 3 s of jfk.wav, "And so my fellow Americans", as a 16 kHz mono WAV: real speech
 * for the tests that need only some (status codes, idempotency, formats, limits, storage). PocketSphinx
 * takes about a third of the CPU it takes for the whole 11 s sample. Tests whose words or timings
 * matter (the dictionary, transcripts, word timings, citations) keep jfk.wav.
 */
export function jfkOpeningFile(): Promise<string> {
  opening ??= ffmpegFixtureFile("jfk-opening.wav", ["-i", JFK_WAV, "-t", String(JFK_OPENING_SECONDS)]);
  return opening;
}
/** The bytes of jfkOpeningFile(). */
export const jfkOpening = async (): Promise<Buffer> => readFile(await jfkOpeningFile());

export const silence = (seconds: number) =>
  ffmpegFixture(`silence-${seconds}.wav`, ["-f", "lavfi", "-i", `anullsrc=r=16000:cl=mono`, "-t", String(seconds)]);

/**
 * Sentences spoken by espeak-ng (150 words a minute) into one 16 kHz mono WAV at `wavPath`, each
 * with `pad(i)` = [seconds of silence before, after] it: real speech with pauses where the test wants them.
 */
export async function spokenSentences(wavPath: string, sentences: string[], pad: (i: number) => [number, number]): Promise<void> {
  const parts: string[] = [];
  for (const [i, sentence] of sentences.entries()) {
    const spoken = `${wavPath}.s${i}.wav`;
    const padded = `${wavPath}.p${i}.wav`;
    await exec("espeak-ng", ["-s", "150", "-w", spoken, sentence]);
    await exec("sox", [spoken, "-r", "16000", "-c", "1", padded, "pad", ...pad(i).map(String)]);
    parts.push(padded);
  }
  await exec("sox", [...parts, wavPath]);
  await Promise.all(parts.flatMap((p, i) => [rm(p), rm(`${wavPath}.s${i}.wav`)]));
}
