import { db } from "@/lib/db/client.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { errorFields, log } from "@/lib/log.ts";
import { finishLiveRecording } from "@/lib/transcription/live/finish-live-recording.ts";
import { idleSince } from "@/lib/transcription/live/open-live-recordings.ts";

// The sweep of live recordings the phone stopped sending (closed, out of battery, or an API client
// that never said finish): after LIVE_RECORDING_IDLE_MINUTES without audio, each is finished as a
// Stop would, so what was said becomes a note and its chunks go. Finishing is safe from several
// processes at once (one note per live recording), and a phone that comes back later finds the
// note (or, holding more audio than the note, sends the whole recording as a new upload).

/** Errors that say there is nothing to make a note of: the recording is dropped instead of retried. */
const NOTHING_SAID = new Set(["empty_audio", "no_speech", "unreadable_audio", "audio_too_long"]);

/** Finishes up to `limit` idle live recordings, oldest first; returns how many became notes. */
export async function finishIdleLiveRecordings({ idleBefore = idleSince(), limit = 3 }: { idleBefore?: Date; limit?: number } = {}): Promise<number> {
  const prisma = await db();
  const idle = await prisma.liveRecording.findMany({
    where: { status: "recording", updatedAt: { lt: idleBefore } },
    orderBy: { updatedAt: "asc" },
    take: limit,
    select: { userId: true, id: true, workflowId: true },
  });
  let finished = 0;
  for (const { userId, id, workflowId } of idle) {
    try {
      await finishLiveRecording({ userId, id });
      finished += 1;
    } catch (err) {
      if (err instanceof ApiError && NOTHING_SAID.has(err.code)) {
        // Its chunks and pieces go with it (cascades), unless it was finished meanwhile.
        await prisma.$transaction(async (tx) => {
          const dropped = await tx.liveRecording.deleteMany({ where: { userId, id, status: "recording" } });
          if (dropped.count) await tx.recognitionWorkflow.deleteMany({ where: { id: workflowId, userId } });
        });
        log.info("an idle live recording held nothing to make a note of; dropped", { live_recording_id: id, reason: err.code });
      } else {
        // The recognizer busy or failing: tried again at the next sweep.
        log.warn("could not finish an idle live recording; trying again later", { live_recording_id: id, ...errorFields(err) });
      }
    }
  }
  if (finished) log.info("finished idle live recordings", { count: finished });
  return finished;
}
