import { spawn } from "node:child_process";
import path from "node:path";
import { env } from "@/lib/env.ts";

export const NOTE_AUDIO_TYPE = "audio/webm; codecs=opus";

export type EncodedAudio = { path: string; contentType: string };
export type Encoding = { done: Promise<EncodedAudio>; cancel: () => void };

/**
 * libopus's effort (0–10, its default 10). At 5 a 5-minute recording compresses in 2.7 s instead of
 * 4.4 s here (bench:live-finish: the kept audio was the last thing Stop waited for), at the same
 * size, and the words heard in it are the same (docs/benchmarks.md).
 */
const OPUS_EFFORT = 5;

/**
 * Starts compressing a recording to keep it: Opus in WebM at a speech bitrate
 * (AUDIO_BITRATE_KBPS, 20: about 9 MB per hour), 16 kHz mono, which every browser the app
 * supports plays and seeks (ffmpeg writes the cues). The input is the decoded WAV, or the
 * recording itself read by its sniffed format's demuxer (a live recording: compressing starts at
 * once, beside its decoding); ffmpeg may open no other file. It runs beside recognition, at the
 * recognizers' low CPU priority. `cancel` stops it when the upload fails.
 */
export function encodeNoteAudio(
  input: { path: string; demuxer: string },
  workDir: string,
  { lowerPriority }: { lowerPriority: (pid: number | undefined) => void },
): Encoding {
  const output = path.join(workDir, "kept.webm");
  const { FFMPEG_PATH, AUDIO_BITRATE_KBPS, MAX_AUDIO_SECONDS } = env();
  const child = spawn(
    FFMPEG_PATH,
    [
      "-nostdin", "-hide_banner", "-v", "error",
      "-f", input.demuxer, "-protocol_whitelist", "file", "-i", `file:${input.path}`,
      "-map", "0:a:0", "-vn", "-ac", "1", "-ar", "16000", "-t", String(MAX_AUDIO_SECONDS + 1),
      "-c:a", "libopus", "-b:a", `${AUDIO_BITRATE_KBPS}k`, "-application", "voip", "-compression_level", String(OPUS_EFFORT),
      "-f", "webm", "-y", `file:${output}`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  lowerPriority(child.pid);
  let stderr = "";
  child.stderr.on("data", (d) => {
    if (stderr.length < 4096) stderr += d;
  });
  const done = new Promise<EncodedAudio>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve({ path: output, contentType: NOTE_AUDIO_TYPE });
      else reject(new Error(`ffmpeg could not compress the recording (exit ${code}): ${stderr.trim()}`));
    });
  });
  done.catch(() => undefined); // awaited by keepNoteAudio, or dropped with the failed upload
  return { done, cancel: () => child.kill("SIGKILL") };
}
