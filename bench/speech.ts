// Long recordings for the benchmarks: the shared real speech (JFK) with a 1.5 s pause after it,
// looped to any length, as 16 kHz mono WAV.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);
export const JFK = path.resolve(import.meta.dirname, "../../shared/audio/jfk.wav");

/** `seconds` of looped speech written into `dir`; returns the file's path. */
export async function loopedSpeech(dir: string, seconds: number): Promise<string> {
  const out = path.join(dir, `speech-${seconds}.wav`);
  await exec("ffmpeg", [
    "-nostdin", "-v", "error", "-y", "-i", JFK, "-f", "lavfi", "-t", "1.5", "-i", "anullsrc=r=16000:cl=mono",
    "-filter_complex", "[0:a]aresample=16000,aformat=channel_layouts=mono[s];[s][1:a]concat=n=2:v=0:a=1,aloop=loop=-1:size=2e9[out]",
    "-map", "[out]", "-t", String(seconds), "-ac", "1", "-ar", "16000", out,
  ]);
  return out;
}
