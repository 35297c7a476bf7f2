import { z } from "zod";
import { ApiError } from "@/lib/http/errors.ts";
import { getOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { replaceText } from "@/lib/notes/store/note-writes.ts";
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
  const before = await getOwnedNote({ userId, id }, { text: true, rawText: true });
  const editsText = input.text !== undefined || input.title !== undefined;
  const count = editsText
    ? await replaceText({ userId, id, text: input.text, title: input.title, updatedAt: input.updated_at ? new Date(input.updated_at) : undefined })
    : 1;
  if (count && input.text !== undefined) await writeNoteInsights({ userId, id });
  if (count) await setNoteLabels({ userId, id, input: { tags: input.tags, pinned: input.pinned } });
  const row = await getOwnedNote({ userId, id });
  if (!count) {
    throw new ApiError("edit_conflict", "The transcript changed since you loaded it; reload it and apply your edit again.");
  }
  const suggestions =
    input.text === undefined ? [] : await suggestionsForEdit({ userId, before: before.text, after: input.text, heard: before.rawText, language: row.language });
  return { ...presentNote(row), dictionary_suggestions: suggestions };
}
