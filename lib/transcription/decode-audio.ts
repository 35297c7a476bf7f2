import { spawn } from "node:child_process";
import { open } from "node:fs/promises";
import { ApiError } from "@/lib/http/errors.ts";

export const SAMPLE_RATE = 16_000;
const BYTES_PER_SECOND = SAMPLE_RATE * 2;
// Below this level (dBFS, loudest 50 ms window) there is nothing a recognizer could hear.
const SILENCE_DBFS = -50;

export type DecodedAudio = { wavPath: string; durationSec: number; peakDbfs: number };

type Run = { code: number | null; stderr: string };

function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      if (stderr.length < 8192) stderr += d;
    });
    child.on("error", (err) => {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") {
        reject(
          new ApiError(
            "engine_unavailable",
            `Audio decoding needs ffmpeg, which is not installed (${command}); install it (apt-get install ffmpeg) or set FFMPEG_PATH.`,
          ),
        );
      } else reject(err);
    });
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

/**
 * Decodes any container ffmpeg knows to 16 kHz mono 16-bit PCM WAV, the input of every recognizer.
 * Decoding stops just past `maxSeconds`, so an over-long upload costs no more than the limit.
 */
export async function decodeAudio(
  inputPath: string,
  outputPath: string,
  { ffmpeg, maxSeconds }: { ffmpeg: string; maxSeconds: number },
): Promise<DecodedAudio> {
  const { code, stderr } = await run(ffmpeg, [
    "-nostdin", "-hide_banner", "-v", "error",
    "-i", inputPath,
    "-map", "0:a:0", "-vn", "-ac", "1", "-ar", String(SAMPLE_RATE), "-c:a", "pcm_s16le",
    "-t", String(maxSeconds + 1), "-fflags", "+bitexact", "-flags:a", "+bitexact",
    "-f", "wav", "-y", outputPath,
  ]);
  if (code !== 0) {
    const reason = stderr.includes("matches no streams") ? "it contains no audio track" : "it may be truncated or corrupt";
    throw new ApiError("unreadable_audio", `The audio cannot be decoded: ${reason}.`);
  }
  const { durationSec, peakDbfs } = await measureWav(outputPath);
  if (durationSec > maxSeconds) {
    throw new ApiError(
      "audio_too_long",
      `The recording is longer than the limit of ${formatDuration(maxSeconds)}; split it into shorter parts.`,
    );
  }
  if (durationSec < 0.1) throw new ApiError("empty_audio", "The recording is empty or shorter than 0.1 s.");
  if (peakDbfs < SILENCE_DBFS) {
    throw new ApiError("no_speech", "The recording is silent; nothing could be transcribed. Check the microphone.");
  }
  return { wavPath: outputPath, durationSec, peakDbfs };
}

function formatDuration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** Duration and loudness of a PCM WAV, read in chunks (an hour of audio is 115 MB). */
export async function measureWav(wavPath: string): Promise<{ durationSec: number; peakDbfs: number; dataOffset: number }> {
  const file = await open(wavPath, "r");
  try {
    const dataOffset = await findDataChunk(file);
    const { size } = await file.stat();
    const dataBytes = size - dataOffset;
    const window = SAMPLE_RATE / 20; // 50 ms
    const buffer = Buffer.alloc(window * 2 * 256);
    let loudest = 0;
    for (let position = dataOffset; position < size; ) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
      if (!bytesRead) break;
      position += bytesRead;
      for (let start = 0; start + 1 < bytesRead; start += window * 2) {
        let sum = 0;
        let n = 0;
        for (let i = start; i + 1 < Math.min(bytesRead, start + window * 2); i += 2, n++) {
          const s = buffer.readInt16LE(i) / 32768;
          sum += s * s;
        }
        if (n) loudest = Math.max(loudest, Math.sqrt(sum / n));
      }
    }
    const peakDbfs = loudest > 0 ? 20 * Math.log10(loudest) : -Infinity;
    return { durationSec: Math.max(0, dataBytes) / BYTES_PER_SECOND, peakDbfs, dataOffset };
  } finally {
    await file.close();
  }
}

async function findDataChunk(file: import("node:fs/promises").FileHandle): Promise<number> {
  const header = Buffer.alloc(12);
  await file.read(header, 0, 12, 0);
  if (header.toString("ascii", 0, 4) !== "RIFF" || header.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error("not a WAV file");
  }
  const chunk = Buffer.alloc(8);
  for (let offset = 12; ; ) {
    const { bytesRead } = await file.read(chunk, 0, 8, offset);
    if (bytesRead < 8) throw new Error("WAV file without a data chunk");
    const id = chunk.toString("ascii", 0, 4);
    if (id === "data") return offset + 8;
    offset += 8 + chunk.readUInt32LE(4) + (chunk.readUInt32LE(4) % 2);
  }
}
