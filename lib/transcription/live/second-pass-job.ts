import { db } from "@/lib/db/client.ts";
import { defineJob } from "@/lib/jobs/define-job.ts";
import { findOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { runHearingLiveAgain } from "@/lib/transcription/live/hear-again.ts";
import { runHearingNoteAgain } from "@/lib/transcription/recognition/hear-note-again.ts";
import { recoverSecondPasses, secondPassEnded, secondPassJobSpec, type SecondPassPayload } from "@/lib/transcription/recognition/second-passes.ts";

// The second pass as a job, for both passes (recognition/second-passes.ts): it lives beside the
// live pass because it runs both, and the live room may import the recognition room, not back.

export const secondPassJob = defineJob({
  ...secondPassJobSpec,
  async run(payload, { lastAttempt }) {
    const run = payload.kind === "live" ? runHearingLiveAgain : runHearingNoteAgain;
    secondPassEnded(payload.noteId, await run(payload, { lastAttempt }));
  },
});

/**
 * Which pass a note that no process renews was waiting for: a live recording's, unless its text
 * was improved already (then it was an older note heard again on request).
 */
async function kindOf({ userId, id }: { userId: string; id: string }): Promise<SecondPassPayload["kind"]> {
  const prisma = await db();
  const live = await prisma.liveRecording.findFirst({ where: { userId, transcriptionId: id }, select: { id: true } });
  if (!live) return "note";
  const note = await findOwnedNote({ userId, id }, { textImprovedAt: true });
  return note?.textImprovedAt ? "note" : "live";
}

/** The sweep of second passes no process holds (queued before a restart, or cut short by one). */
export const recoverSecondPassesSweep = () => recoverSecondPasses(kindOf);
