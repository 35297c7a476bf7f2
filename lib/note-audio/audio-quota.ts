import { db } from "@/lib/db/client.ts";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { keptAudioBytes } from "@/lib/notes/store/note-audio-fields.ts";

// AUDIO_QUOTA_MB: how much audio one account may keep on this server. What counts is what takes
// room: every note's kept recording (compressed), and the bytes of live recordings not yet made
// notes of (their chunks, as the phone sent them). Unset, there is no quota.

const MB = 1024 * 1024;

export type AudioUsage = { used_bytes: number; quota_bytes: number | null };

export const audioQuotaBytes = (): number | null => {
  const mb = env().AUDIO_QUOTA_MB;
  return mb === undefined ? null : Math.floor(mb * MB);
};

/** The audio an account keeps now, and its quota (null: none). */
export async function audioUsage({ userId }: { userId: string }): Promise<AudioUsage> {
  const prisma = await db();
  const [kept, live] = await Promise.all([
    keptAudioBytes({ userId }),
    prisma.liveRecording.aggregate({ where: { userId, chunks: { some: {} } }, _sum: { bytesReceived: true } }),
  ]);
  return { used_bytes: kept + (live._sum.bytesReceived ?? 0), quota_bytes: audioQuotaBytes() };
}

/**
 * 413 audio_quota_exceeded when keeping `adding` more bytes would pass the quota. An upload does
 * not know what it will keep until it is compressed (about 9 MB an hour), so it asks with 0 and is
 * refused only once the account is at its quota: the recording that crosses it is still kept.
 */
export async function assertAudioQuotaLeft({ userId, adding = 0 }: { userId: string; adding?: number }): Promise<void> {
  const quota = audioQuotaBytes();
  if (quota === null) return;
  const { used_bytes: used } = await audioUsage({ userId });
  if (used + Math.max(1, adding) <= quota) return;
  throw new ApiError(
    "audio_quota_exceeded",
    `This account keeps ${megabytes(used)} of audio and may keep ${megabytes(quota)}: delete notes you no longer need to make ` +
      "room. Uploads with keep_audio=false are still taken (their text is kept, their audio not).",
  );
}

const megabytes = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
