import { spawn } from "node:child_process";
import { open } from "node:fs/promises";
import { ApiError } from "@/lib/http/errors.ts";
import { FFMPEG_DEMUXER, type AudioFormat } from "@/lib/transcription/audio/audio-format.ts";
import { BoundedQueue } from "@/lib/transcription/recognizers/bounded-queue.ts";
import { lowerPriority, type Urgency } from "@/lib/transcription/recognizers/priority.ts";
import { EngineBusyError } from "@/lib/transcription/recognizers/types.ts";

export const SAMPLE_RATE = 16_000;
const BYTES_PER_SECOND = SAMPLE_RATE * 2;
// Below this level (dBFS, loudest 50 ms window) there is nothing a recognizer could hear. A cheap
// first check: it refuses a silent recording before the voice-activity detector (vad.ts, which
// also refuses noise and music as no_speech) loads its model.
const SILENCE_DBFS = -50;

export type DecodedAudio = { wavPath: string; durationSec: number; peakDbfs: number };
/** Whether decoded audio is too quiet for any recognizer to hear (refused as no_speech unless `keepSilent`). */
export const isSilent = (audio: Pick<DecodedAudio, "peakDbfs">) => audio.peakDbfs < SILENCE_DBFS;

type Run = { code: number | null; stderr: string };

function run(command: string, args: string[], urgency?: Urgency, signal?: AbortSignal): Promise<Run> {
  return new Promise((resolve, reject) => {
    // An aborted decode's ffmpeg is killed, and its slot freed (the 'error' below rejects).
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], signal });
    lowerPriority(child.pid, urgency);
    let stderr = "";
    child.stderr.on("data", (d) => {
      if (stderr.length < 64 * 1024) stderr += d;
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

// Decoding is CPU- and disk-bound: more decodes at once than cores only slow every one down.
let decodes: { concurrency: number; maxWaiting: number; queue: BoundedQueue } | undefined;
function decodeQueue(concurrency: number, maxWaiting: number): BoundedQueue {
  if (decodes?.concurrency !== concurrency || decodes.maxWaiting !== maxWaiting) {
    decodes = { concurrency, maxWaiting, queue: new BoundedQueue(concurrency, maxWaiting) };
  }
  return decodes.queue;
}

/** Decodes running and waiting now (for tests and health reports). */
export const decodeQueueSize = () => decodes?.queue.size ?? { running: 0, waiting: 0 };

export type DecodeOptions = {
  ffmpeg: string;
  format: AudioFormat;
  maxSeconds: number;
  /** Decodes that may run at once, and wait for a turn; beyond that, 503 engine_busy. */
  concurrency: number;
  maxWaiting: number;
  /** Decode from this second on (a live recording's part not yet heard); the duration is then the rest's. */
  startSec?: number;
  /** Answer silent audio instead of refusing it as no_speech (a live recording's rest: its length still counts). */
  keepSilent?: boolean;
  /** Whose turn first among decodes, and at what CPU priority (priority.ts). */
  urgency?: Urgency;
  /** Gives up: a decode still waiting never starts, a running one is killed. */
  signal?: AbortSignal;
};

/**
 * Decodes an upload to 16 kHz mono 16-bit PCM WAV, the input of every recognizer. ffmpeg gets the
 * demuxer of the sniffed format and may open no file but the upload, so no content can make it
 * read another file or URL. Decoding stops just past `maxSeconds`, and a file whose header says
 * it is longer is refused before any of it is decoded.
 */
export async function decodeAudio(inputPath: string, outputPath: string, options: DecodeOptions): Promise<DecodedAudio> {
  try {
    return await decodeQueue(options.concurrency, options.maxWaiting).run(() => decode(inputPath, outputPath, options), options.signal, options.urgency);
  } catch (err) {
    if (!(err instanceof EngineBusyError)) throw err;
    throw new ApiError("engine_busy", "The server is busy decoding other recordings; try again shortly.", {
      headers: { "Retry-After": String(err.retryAfterSeconds) },
    });
  }
}

async function decode(inputPath: string, outputPath: string, { ffmpeg, format, maxSeconds, startSec, keepSilent, urgency, signal }: DecodeOptions): Promise<DecodedAudio> {
  const from = startSec ? ["-ss", startSec.toFixed(3)] : [];
  const input = ["-f", FFMPEG_DEMUXER[format], ...from, "-protocol_whitelist", "file", "-i", `file:${inputPath}`];
  // A live recording's rest (startSec) is not asked for its header's length: each cut would pay a
  // second ffmpeg start (0.2 s here) for a header MediaRecorder does not write, and the decoding
  // below stops past maxSeconds whatever a header says.
  if (startSec === undefined) {
    const declared = declaredDuration((await run(ffmpeg, ["-nostdin", "-hide_banner", ...input], urgency, signal)).stderr);
    if (declared !== undefined && declared > maxSeconds) throw audioTooLong(maxSeconds);
  }

  const { code, stderr } = await run(ffmpeg, [
    "-nostdin", "-hide_banner", "-v", "error",
    ...input,
    "-map", "0:a:0", "-vn", "-ac", "1", "-ar", String(SAMPLE_RATE), "-c:a", "pcm_s16le",
    "-t", String(maxSeconds + 1), "-fflags", "+bitexact", "-flags:a", "+bitexact",
    "-f", "wav", "-y", `file:${outputPath}`,
  ], urgency, signal);
  if (code !== 0) {
    const reason = stderr.includes("matches no streams") ? "it contains no audio track" : "it may be truncated or corrupt";
    throw new ApiError("unreadable_audio", `The audio cannot be decoded: ${reason}.`);
  }
  const { durationSec, peakDbfs } = await measureWav(outputPath);
  if (durationSec > maxSeconds) throw audioTooLong(maxSeconds);
  if (durationSec < 0.1) throw new ApiError("empty_audio", "The recording is empty or shorter than 0.1 s.");
  if (!keepSilent && isSilent({ peakDbfs })) {
    throw new ApiError("no_speech", "The recording is silent; nothing could be transcribed. Check the microphone.");
  }
  return { wavPath: outputPath, durationSec, peakDbfs };
}

/**
 * The duration the container's header states, from ffmpeg's description of its input (ffmpeg
 * run without an output only prints it). Undefined when unknown (a browser recording's WebM)
 * or merely estimated from the bitrate (an MP3 without a VBR header), which may be far off.
 */
export function declaredDuration(ffmpegInfo: string): number | undefined {
  if (/estimating duration from bitrate/i.test(ffmpegInfo)) return undefined;
  const match = /^\s*Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/m.exec(ffmpegInfo);
  if (!match) return undefined;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

export const audioTooLong = (maxSeconds: number) =>
  new ApiError("audio_too_long", `The recording is longer than the limit of ${formatDuration(maxSeconds)}; split it into shorter parts.`);

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
