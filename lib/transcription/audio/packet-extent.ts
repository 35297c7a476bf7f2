import { spawn } from "node:child_process";
import { ApiError } from "@/lib/http/errors.ts";
import { FFMPEG_DEMUXER, type AudioFormat } from "@/lib/transcription/audio/audio-format.ts";

// Where the audio packets of a file end, as ffprobe's demuxer finds them: it reads the container
// and lists each packet's byte position and size, without decoding (an hour of WebM/Opus, 25 MB:
// about 0.2 s, most of it ffprobe's start). Bytes after the last packet are not audio, or not yet
// whole (the packet a recorder is still writing).

const PACKET = /size=(\d+)\|pos=(\d+)/g;

export type PacketExtentOptions = {
  ffprobe: string;
  format: AudioFormat;
  /** List packets from this second on (earlier packets are not needed); 0: from the start. */
  fromSec?: number;
  timeoutMs?: number;
};

/** The byte just past the last packet of the first audio stream (0: none found). */
export function packetExtent(file: string, { ffprobe, format, fromSec = 0, timeoutMs = 30_000 }: PacketExtentOptions): Promise<number> {
  const args = [
    "-v", "quiet",
    "-f", FFMPEG_DEMUXER[format],
    ...(fromSec > 0 ? ["-read_intervals", `${fromSec.toFixed(3)}%`] : []),
    "-protocol_whitelist", "file",
    "-select_streams", "a:0",
    "-show_entries", "packet=pos,size",
    "-of", "compact=p=0",
    `file:${file}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ffprobe, args, { stdio: ["ignore", "pipe", "ignore"], timeout: timeoutMs });
    let end = 0;
    let rest = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      const lines = (rest + text).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) for (const [, size, pos] of line.matchAll(PACKET)) end = Math.max(end, Number(pos) + Number(size));
    });
    child.on("error", (err) => {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") return reject(err);
      reject(new ApiError("engine_unavailable", `Checking live audio needs ffprobe (part of ffmpeg), which is not installed (${ffprobe}); install ffmpeg or set FFPROBE_PATH.`));
    });
    // A file that ends inside a packet, or holds no audio at all, is an answer too (what was found).
    child.on("close", () => {
      for (const [, size, pos] of rest.matchAll(PACKET)) end = Math.max(end, Number(pos) + Number(size));
      resolve(end);
    });
  });
}
