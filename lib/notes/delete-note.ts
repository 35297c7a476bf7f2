import { db } from "@/lib/db/client.ts";
import { getOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { deleteNoteRow } from "@/lib/notes/store/note-writes.ts";
import { deleteCleanUp } from "@/lib/clean-up/store/clean-up-workflows.ts";
import { deletePosts } from "@/lib/posts/store/post-writes.ts";
import { forgetAudio } from "@/lib/note-audio/sweep-audio-retention.ts";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event.ts";

/**
 * Deletes one of the user's notes: its kept recording (from whichever store holds it), the row,
 * and what only it used (its optimization and recognition workflows, when no other upload of the
 * same recording shares them; their chunks and pieces cascade). Posts made from it are deleted
 * too when `withPosts`; otherwise they stay, their source_transcription_id pointing at nothing.
 */
export async function deleteNote({ userId, id, withPosts }: { userId: string; id: string; withPosts: boolean }): Promise<void> {
  const prisma = await db();
  const note = await getOwnedNote({ userId, id }, { id: true, userId: true, audioStorage: true, optimizationId: true, requestHash: true });
  // The audio first: a failure leaves the note (retry the delete), never an unreachable recording.
  if (note.audioStorage) await forgetAudio([note]);

  await prisma.$transaction(async (tx) => {
    if (withPosts) {
      // Variants, generation tasks and deliveries cascade from their master.
      await deletePosts({ userId, sourceNoteId: id, tx });
    }
    const { cleanUpShared, recognitionShared } = await deleteNoteRow({ userId, id, tx }, note);
    if (note.optimizationId && !cleanUpShared) {
      await deleteCleanUp({ id: note.optimizationId, userId, tx });
    }
    // A running one is a retried upload of the same recording in flight: it makes a new note.
    if (!recognitionShared) {
      await tx.recognitionWorkflow.deleteMany({ where: { userId, requestHash: note.requestHash, status: { not: "running" } } });
    }
  });
  await emitWebhookEvent({ userId, type: "note.deleted", subjectId: id });
}
