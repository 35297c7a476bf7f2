import type { Db } from "@/lib/db/types.ts";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";

// A live recording is open while audio arrives: from its first PATCH until finish, or until no
// PATCH came for LIVE_RECORDING_IDLE_MINUTES (the phone stopped sending; the sweep in
// finish-idle-live-recordings.ts makes it a note). Each account may have LIVE_RECORDINGS_OPEN_MAX
// open at once: every open one holds its chunks in the database, so one key could fill the disk.

const idleMs = () => env().LIVE_RECORDING_IDLE_MINUTES * 60_000;

/** A recording still "recording" whose last append is older than this is idle. */
export const idleSince = (now = Date.now()): Date => new Date(now - idleMs());

/**
 * Throws 429 too_many_live_recordings when the account has its most open live recordings, with
 * Retry-After: when the one appended to longest ago goes idle. Exact inside the transaction that
 * creates the recording, holding the account's row lock (a burst of creates is then counted one
 * by one); without it, a cheap first look.
 */
export async function assertLiveRecordingSlot(db: Db, userId: string): Promise<void> {
  const max = env().LIVE_RECORDINGS_OPEN_MAX;
  if (!max) return;
  const open = { userId, status: "recording", updatedAt: { gte: idleSince() } };
  const count = await db.liveRecording.count({ where: open });
  if (count < max) return;
  // The one whose going idle leaves max - 1 open.
  const [freed] = await db.liveRecording.findMany({ where: open, orderBy: { updatedAt: "asc" }, skip: count - max, take: 1, select: { updatedAt: true } });
  const wait = freed ? Math.max(1, Math.ceil((freed.updatedAt.getTime() + idleMs() - Date.now()) / 1000)) : 1;
  throw new ApiError(
    "too_many_live_recordings",
    `You have ${count} live recordings open, the most there may be (${max}). Finish one (POST /api/v1/live-recordings/{id}/finish), ` +
      `or send this recording whole when it ends (POST /transcribe); an open one that takes no audio for ` +
      `${env().LIVE_RECORDING_IDLE_MINUTES} minutes is made a note and no longer counts.`,
    { headers: { "Retry-After": String(wait) } },
  );
}
