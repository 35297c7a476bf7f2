import { spawn } from "node:child_process";
import { FFMPEG_DEMUXER, type AudioFormat } from "@/lib/transcription/audio/audio-format.ts";
import { SAMPLE_RATE } from "@/lib/transcription/audio/decode-audio.ts";
import { lowerPriority, type Urgency } from "@/lib/transcription/recognizers/priority.ts";

// A recording decoded while it is still being made: one ffmpeg reading the container's bytes from
// its stdin as they arrive (a phone recorder's WebM, Ogg, fragmented MP4 or WAV) and writing
// 16 kHz mono samples as soon as each block is decoded (here within 20 ms of its bytes). Unlike a
// cut's decode (cut-live-pieces.ts), it never reads the recording again, so what it costs per
// second of speech does not grow with the recording, nor wait for the database.

export type StreamDecoder = {
  /** The container's next bytes, following those written before. */
  write(bytes: Uint8Array): void;
  /** Seconds of samples decoded so far. */
  decodedSeconds(): number;
  /** No more bytes: resolves once every sample is handed over; rejects when ffmpeg failed. */
  end(): Promise<void>;
  /** Stops at once. */
  close(): void;
};

/** Starts decoding; `onSamples` gets each block of s16le samples in order. */
export function openStreamDecoder({ ffmpeg, format, urgency, onSamples }: { ffmpeg: string; format: AudioFormat; urgency: Urgency; onSamples: (pcm: Buffer) => void }): StreamDecoder {
  const child = spawn(
    ffmpeg,
    [
      "-nostdin", "-hide_banner", "-v", "error",
      // The format is known (check-live-bytes.ts); ffmpeg need not read ahead to guess it, nor to
      // measure the stream, before its first samples.
      "-f", FFMPEG_DEMUXER[format], "-probesize", "32", "-analyzeduration", "0", "-i", "pipe:0",
      "-map", "0:a:0", "-vn", "-ac", "1", "-ar", String(SAMPLE_RATE), "-c:a", "pcm_s16le",
      "-flush_packets", "1", "-f", "s16le", "pipe:1",
    ],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  lowerPriority(child.pid, urgency);
  let bytes = 0;
  let odd: Buffer | undefined;
  let stderr = "";
  let failed: Error | undefined;
  child.stdout.on("data", (data: Buffer) => {
    // Whole samples only: a block may end in the middle of one.
    const pcm = odd ? Buffer.concat([odd, data]) : data;
    const whole = pcm.length - (pcm.length % 2);
    odd = whole < pcm.length ? pcm.subarray(whole) : undefined;
    bytes += whole;
    if (whole) onSamples(pcm.subarray(0, whole));
  });
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-2000)));
  child.on("error", (err) => (failed = err));
  // ffmpeg gone (failed, or closed): what is written after is dropped, not thrown.
  child.stdin.on("error", (err) => (failed ??= err));
  const done = new Promise<number | null>((resolve) => child.on("close", resolve));
  return {
    write(chunk) {
      if (!failed && child.stdin.writable) child.stdin.write(chunk);
    },
    decodedSeconds: () => bytes / 2 / SAMPLE_RATE,
    async end() {
      if (child.stdin.writable) child.stdin.end();
      const code = await done;
      if (failed || code !== 0) throw new Error(`ffmpeg could not decode the stream (${failed?.message ?? `exit ${code}`}): ${stderr.trim().split("\n").at(-1) ?? ""}`);
    },
    close() {
      child.kill("SIGKILL");
    },
  };
}
