import { appendFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setBounded } from "@/lib/bounded-map.ts";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";
import type { AudioFormat } from "@/lib/transcription/audio/audio-format.ts";
import { packetExtent } from "@/lib/transcription/audio/packet-extent.ts";
import { writeLiveAudio } from "@/lib/transcription/live/live-audio-file.ts";

// A live recording keeps new bytes only when they are audio. A recorder's bytes are audio packets
// in their container, but for the last one, still being written; so the recording with the new
// bytes must end in packets, give or take this much. (Issue 44: after a valid 4.5 KB WebM header,
// 24 × 8 MiB of random bytes were all kept.) WAV holds raw samples, so any bytes are audio to it:
// a WAV recording is bounded by the upload limit and the quota alone.

/**
 * The most bytes after the last whole packet: a WebM or Ogg packet is a few KB at most, and a
 * fragment of a phone's MP4 (a second of AAC) about 20 KB; an offline backlog sent in pieces may
 * end inside one.
 */
export const UNFINISHED_TAIL_MAX_BYTES = 256 * 1024;

export type LiveBytesOf = { userId: string; id: string; format: string; bytesReceived: number; heardUntil: number; workflowId?: string };

// Where each recording's packets were found to end, by the check before (per recording, as made:
// its workflow). Packets only grow, so while the new bytes end within UNFINISHED_TAIL_MAX_BYTES of
// that, the check needs no demuxer: a phone's 8 KB a second was read back from the database and
// listed by ffprobe on every PATCH past the first 256 KB (bench:live-load); now about every 30 s.
const AUDIO_ENDS_KEPT_MAX = 10_000;
const audioEnds = new Map<string, number>();

/**
 * 415 unsupported_audio unless the recording with `fresh` appended ends in audio packets. The
 * demuxer lists them from a little before the part not yet heard (earlier ones were heard), so
 * the check costs about the new seconds, not the whole recording.
 */
export async function assertLiveBytesAreAudio({ recording, fresh }: { recording: LiveBytesOf; fresh: Uint8Array }): Promise<void> {
  const format = recording.format as AudioFormat;
  const total = recording.bytesReceived + fresh.length;
  if (format === "wav" || total <= UNFINISHED_TAIL_MAX_BYTES) return;
  const made = recording.workflowId;
  if (made && total - (audioEnds.get(made) ?? 0) <= UNFINISHED_TAIL_MAX_BYTES) return;
  const dir = await mkdtemp(path.join(tmpdir(), "vd-live-check-"));
  try {
    const file = await writeLiveAudio(recording, dir, recording.bytesReceived);
    await appendFile(file, fresh);
    const ffprobe = env().FFPROBE_PATH;
    const fromSec = Math.max(0, recording.heardUntil - 2);
    let end = await packetExtent(file, { ffprobe, format, fromSec });
    // A seek that found nothing (a container without an index): list them from the start.
    if (end === 0 && fromSec > 0) end = await packetExtent(file, { ffprobe, format });
    const unfinished = total - end;
    if (unfinished <= UNFINISHED_TAIL_MAX_BYTES) {
      if (made) setBounded(audioEnds, made, end, AUDIO_ENDS_KEPT_MAX, () => true);
      return;
    }
    throw new ApiError(
      "unsupported_audio",
      `The bytes sent are not audio of this recording: its last ${unfinished} bytes hold no ${format} audio (at most ` +
        `${UNFINISHED_TAIL_MAX_BYTES} may wait for the rest of a packet). None of them was kept; send the recorder's own bytes ` +
        `from offset ${recording.bytesReceived}, or finish the recording.`,
      { details: [{ path: "(body)", message: "not audio" }] },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
