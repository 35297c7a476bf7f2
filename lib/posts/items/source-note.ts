import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/types.ts";
import type { SourceTextKind } from "@/lib/posts/schemas.ts";
import { canonicalBody } from "@/lib/posts/items/content-hash.ts";
import { findOwnedNotes } from "@/lib/notes/store/owned-note.ts";
import { shownTextOf } from "@/lib/notes/store/shown-text.ts";

// A master made from a note copies the note's text and remembers which version it copied (a hash
// of that text). When the note's text is another since (the person fixed a word, edited it, or
// its clean-up finished), the master is outdated: the family says so, and "Update" copies the
// note again (refresh-from-note.ts). Tags, pins and ticks change the note, not its text.

type SourceTranscription = { text: string; editedAt: Date | null; optimization: { status: string; optimizedText: string | null } | null };

/** The text the note shows (lib/notes/store/shown-text.ts), as a master's body: its text, and which one it is. */
export function sourceTextOf(transcription: SourceTranscription): { text: string; kind: SourceTextKind } {
  const { text, kind } = shownTextOf(transcription);
  return { text: canonicalBody(text), kind };
}

export const noteTextHash = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

export type SourceNoteState = { outdated: boolean; noteUpdatedAt: Date } | null;

/**
 * For each master that copied a note: whether the note's text changed since, and when the note
 * last changed. Masters whose note is gone, or that did not copy one, are absent.
 */
export async function sourceNoteStates(
  prisma: Db,
  userId: string,
  masters: { id: string; sourceTranscriptionId: string | null; sourceNoteHash: string | null }[],
): Promise<Map<string, SourceNoteState>> {
  const copied = masters.filter((m) => m.sourceTranscriptionId && m.sourceNoteHash);
  if (!copied.length) return new Map();
  const notes = await findOwnedNotes(
    { userId, ids: [...new Set(copied.map((m) => m.sourceTranscriptionId!))], tx: prisma },
    { id: true, text: true, editedAt: true, updatedAt: true, optimization: { select: { status: true, optimizedText: true } } },
  );
  const byId = new Map(notes.map((n) => [n.id, n]));
  const states = new Map<string, SourceNoteState>();
  for (const master of copied) {
    const note = byId.get(master.sourceTranscriptionId!);
    if (note) states.set(master.id, { outdated: noteTextHash(sourceTextOf(note).text) !== master.sourceNoteHash, noteUpdatedAt: note.updatedAt });
  }
  return states;
}
