import { getOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { presentNote } from "@/lib/notes/present-note.ts";
import type { TranscriptionResult } from "@/lib/notes/schemas.ts";

/** One of the user's transcriptions; another user's id is indistinguishable from a missing one. */
export async function getNote({ userId, id }: { userId: string; id: string }): Promise<TranscriptionResult> {
  return presentNote(await getOwnedNote({ userId, id }));
}
