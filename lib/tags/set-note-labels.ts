import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { getOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { labelsOfFirstPart, setLabels } from "@/lib/notes/store/note-labels.ts";
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
    const note = await getOwnedNote({ userId, id, tx }, { recordingId: true });
    let tags: string[] | null = null;
    if (input.tags !== undefined) {
      await lockTags(tx, userId);
      tags = spelledAsBefore(input.tags, await tagSpellings(tx, userId, { id, recordingId: note.recordingId }));
    }
    await setLabels(tx, { userId, id, recordingId: note.recordingId, tags, pinned: input.pinned ?? null });
  }, TRANSACTION_OPTIONS);
}

/** The tags and pin a new part of a recording takes from the parts before it. */
export async function labelsOfRecording({ userId, recordingId }: { userId: string; recordingId: string }): Promise<{ tags: string[]; pinned: boolean }> {
  return (await labelsOfFirstPart({ userId, recordingId })) ?? { tags: [], pinned: false };
}
