import { ApiError } from "@/lib/http/errors.ts";
import type { Segment } from "@/lib/segment.ts";
import { noteTextRestored } from "@/lib/notes/note-recognized.ts";
import { presentNote } from "@/lib/notes/present-note.ts";
import { getOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { undoImprovedText } from "@/lib/notes/store/note-writes.ts";
import type { TranscriptionResult } from "@/lib/notes/schemas.ts";

// Undo of "heard again" (POST /api/v1/transcriptions/{id}/hear-again/undo): the note's own action,
// not recognition's. The text, raw text, segments and clean-up the note held before its recording
// was heard again (lib/transcription/recognition/hear-note-again.ts, live/hear-again.ts) come back,
// and insights and posts follow as after any new text (note-recognized.ts).

/** Puts back the note's text from before its recording was heard again: the note as it is then. */
export async function undoHearingAgain({ userId, id }: { userId: string; id: string }): Promise<TranscriptionResult> {
  const note = await getOwnedNote({ userId, id });
  if (note.editedAt && note.textBeforeImproved) {
    throw new ApiError("note_edited", "You have edited this note since it was heard again: your text stays, so the earlier text is not put back.");
  }
  const before = await undoImprovedText({ userId, id });
  if (!before) throw new ApiError("nothing_to_undo", "This note's text was not heard again since it was last put back, so there is nothing to undo.");
  await noteTextRestored({ userId, noteId: id, requestHash: note.requestHash, text: before.text, segments: before.segments as Segment[], durationSec: note.durationSec, language: note.language, hadCleanUp: before.optimizationId !== null });
  return presentNote(await getOwnedNote({ userId, id }));
}
