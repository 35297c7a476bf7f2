import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { notFound } from "@/lib/http/errors.ts";
import { spelledAsBefore } from "@/lib/tags/normalize-tag.ts";
import { lockTags, tagSpellings } from "@/lib/tags/user-tags.ts";

/**
 * Sets a note's tags and/or pin. A recording in parts is one note in the app, so every part of it
 * gets the same tags and pin (a part uploaded later takes them too: save-transcription). Neither
 * changes the note's updated_at, which guards its text: tagging a note on one phone never makes an
 * edit of its text on another a conflict.
 */
export async function setNoteLabels({
  userId,
  id,
  input,
}: {
  userId: string;
  id: string;
  input: { tags?: string[]; pinned?: boolean };
}): Promise<void> {
  if (input.tags === undefined && input.pinned === undefined) return;
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const note = await tx.transcription.findFirst({ where: { id, userId }, select: { recordingId: true } });
    if (!note) throw notFound(`The transcription ${id}`);
    let tags: string[] | null = null;
    if (input.tags !== undefined) {
      await lockTags(tx, userId);
      tags = spelledAsBefore(input.tags, await tagSpellings(tx, userId, { id, recordingId: note.recordingId }));
    }
    await tx.$executeRaw`
      UPDATE transcriptions
      SET tags = coalesce(${tags}::text[], tags), pinned = coalesce(${input.pinned ?? null}::boolean, pinned)
      WHERE user_id = ${userId} AND (id = ${id} OR recording_id = ${note.recordingId})`;
  }, TRANSACTION_OPTIONS);
}

/** The tags and pin a new part of a recording takes from the parts before it. */
export async function labelsOfRecording({ userId, recordingId }: { userId: string; recordingId: string }): Promise<{ tags: string[]; pinned: boolean }> {
  const prisma = await db();
  const part = await prisma.transcription.findFirst({
    where: { userId, recordingId },
    orderBy: [{ recordingPart: "asc" }, { createdAt: "asc" }],
    select: { tags: true, pinned: true },
  });
  return part ?? { tags: [], pinned: false };
}
