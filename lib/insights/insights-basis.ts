import { createHash } from "node:crypto";
import { shownText } from "@/lib/notes/store/shown-text.ts";

// What a note's insights are written from: the text it shows and its language (the person's title is
// only a hint to the writer: setting one does not make the insights stale).
// The stored insights keep a digest of it, so the note can say whether they belong to its text now
// (insights_pending) and an offline rewrite can tell that a writer's insights already cover it.

export type InsightsBasisNote = {
  text: string;
  editedAt: Date | null;
  language: string;
  optimization: { status: string; optimizedText: string | null } | null;
};

/** A digest of what a note's insights are written from (22 characters). */
export function insightsBasis(note: InsightsBasisNote): string {
  return createHash("sha256")
    .update(JSON.stringify([shownText(note), note.language]))
    .digest("base64url")
    .slice(0, 22);
}

/** How long the writer's rewrite is waited for (its job expires after 5 minutes). */
const WRITER_WAIT_MS = 5 * 60_000;
/** How long a text can go without insights of its own before the wait is given up (a failed write is logged). */
const REWRITE_WAIT_MS = 2 * 60_000;

/**
 * True while the stored insights are about to be replaced by ones of the note's text now: the text
 * changed (an edit, the clean-up, the second pass) and they are being rewritten, or the writer's
 * rewrite is on its way. Insights stored before they carried a basis are taken as current.
 */
export function insightsPending(
  note: InsightsBasisNote & { updatedAt: Date; optimization: { status: string; optimizedText: string | null; updatedAt: Date } | null },
  marks: { basis?: string; writer_queued_at?: string },
  now = Date.now(),
): boolean {
  if (marks.writer_queued_at && now - Date.parse(marks.writer_queued_at) < WRITER_WAIT_MS) return true;
  if (!marks.basis) return false;
  // The recent change first: the digest reads the whole text (a list of long notes, issue 66).
  const changed = Math.max(note.updatedAt.getTime(), note.optimization?.updatedAt.getTime() ?? 0);
  return now - changed < REWRITE_WAIT_MS && marks.basis !== insightsBasis(note);
}
