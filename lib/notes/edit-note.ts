import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { writeNoteInsights } from "@/lib/insights/write-note-insights.ts";
import { setNoteLabels } from "@/lib/tags/set-note-labels.ts";
import { presentNote } from "@/lib/notes/present-note.ts";
import { suggestionsForEdit } from "@/lib/notes/suggest-dictionary-entries.ts";
import type { EditTranscriptionInput, EditTranscriptionResult } from "@/lib/notes/schemas.ts";

/**
 * Replaces the transcript's text and/or its title with the user's edit (refusing one based on a
 * stale copy), and sets its tags and pin (on every part of its recording; not guarded by updated_at).
 * Answers with the dictionary entries the edit suggests (the text before it → the new text).
 */
export async function editNote({
  userId,
  id,
  input,
}: {
  userId: string;
  id: string;
  input: z.output<typeof EditTranscriptionInput>;
}): Promise<EditTranscriptionResult> {
  const prisma = await db();
  const before = await prisma.transcription.findFirst({ where: { id, userId }, select: { text: true, rawText: true } });
  if (!before) throw notFound(`The transcription ${id}`);
  const editsText = input.text !== undefined || input.title !== undefined;
  const { count } = editsText
    ? await prisma.transcription.updateMany({
        where: { id, userId, ...(input.updated_at && { updatedAt: new Date(input.updated_at) }) },
        data: {
          ...(input.text !== undefined && { text: input.text, editedAt: new Date() }),
          ...(input.title !== undefined && { title: input.title || null }),
        },
      })
    : { count: 1 };
  if (count && input.text !== undefined) await writeNoteInsights({ userId, id });
  if (count) await setNoteLabels({ userId, id, input: { tags: input.tags, pinned: input.pinned } });
  const row = await prisma.transcription.findFirst({ where: { id, userId }, include: { optimization: true } });
  if (!row) throw notFound(`The transcription ${id}`);
  if (!count) {
    throw new ApiError("edit_conflict", "The transcript changed since you loaded it; reload it and apply your edit again.");
  }
  const suggestions =
    input.text === undefined ? [] : await suggestionsForEdit({ userId, before: before.text, after: input.text, heard: before.rawText, language: row.language });
  return { ...presentNote(row), dictionary_suggestions: suggestions };
}
