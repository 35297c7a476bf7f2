import { spawn } from "node:child_process";
import path from "node:path";
import { env } from "@/lib/env.ts";

export const NOTE_AUDIO_TYPE = "audio/webm; codecs=opus";

export type EncodedAudio = { path: string; contentType: string };
export type Encoding = { done: Promise<EncodedAudio>; cancel: () => void };

/**
 * Starts compressing a decoded recording (16 kHz mono WAV) to keep it: Opus in WebM at a speech
 * bitrate (AUDIO_BITRATE_KBPS, 20: about 9 MB per hour), which every browser the app supports
 * plays and seeks (ffmpeg writes the cues). It runs beside recognition, at the recognizers' low
 * CPU priority, so the answer does not wait for it. `cancel` stops it when the upload fails.
 */
export function encodeNoteAudio(wavPath: string, workDir: string, { lowerPriority }: { lowerPriority: (pid: number | undefined) => void }): Encoding {
  const output = path.join(workDir, "kept.webm");
  const { FFMPEG_PATH, AUDIO_BITRATE_KBPS } = env();
  const child = spawn(
    FFMPEG_PATH,
    [
      "-nostdin", "-hide_banner", "-v", "error",
      "-f", "wav", "-protocol_whitelist", "file", "-i", `file:${wavPath}`,
      "-c:a", "libopus", "-b:a", `${AUDIO_BITRATE_KBPS}k`, "-application", "voip",
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
