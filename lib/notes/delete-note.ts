import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
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
  const note = await prisma.transcription.findFirst({
    where: { id, userId },
    select: { id: true, userId: true, audioStorage: true, optimizationId: true, requestHash: true },
  });
  if (!note) throw notFound(`The transcription ${id}`);
  // The audio first: a failure leaves the note (retry the delete), never an unreachable recording.
  if (note.audioStorage) await forgetAudio([note]);

  await prisma.$transaction(async (tx) => {
    if (withPosts) {
      // Variants, generation tasks and deliveries cascade from their master.
      await tx.contentItem.deleteMany({ where: { userId, sourceTranscriptionId: id } });
    }
    await tx.transcription.deleteMany({ where: { id, userId } });
    const sharing = { userId, requestHash: note.requestHash };
    if (note.optimizationId && !(await tx.transcription.count({ where: { optimizationId: note.optimizationId } }))) {
      await tx.optimizationWorkflow.deleteMany({ where: { id: note.optimizationId, userId } });
    }
    // A running one is a retried upload of the same recording in flight: it makes a new note.
    if (!(await tx.transcription.count({ where: sharing }))) {
      await tx.recognitionWorkflow.deleteMany({ where: { ...sharing, status: { not: "running" } } });
    }
  });
  await emitWebhookEvent({ userId, type: "note.deleted", subjectId: id });
}
