// Which text a note shows, everywhere it is shown or used (the note's page and list, insights,
// rewrites, posts made from it, exports, the assistant's tools): the person's edit, else its
// completed clean-up (unless blank), else the recognized text (the dictionary applied). One rule,
// for the stored note and for the note as the API answers it; the browser app uses the same, and
// the raw queries its SQL twin (shown-text-sql.ts).

export type ShownTextKind = "edited" | "optimized" | "recognized";

type Shown = { text: string; kind: ShownTextKind };

/** What String.prototype.trim() trims (a clean-up of only these is blank): the SQL twin btrims the same. */
export const TRIMMED_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

function pick(text: string, edited: boolean, optimization: { status: string; text: string | null } | null | undefined): Shown {
  if (edited) return { text, kind: "edited" };
  const clean = optimization?.status === "completed" ? optimization.text : null;
  return clean?.trim() ? { text: clean, kind: "optimized" } : { text, kind: "recognized" };
}

/** A stored note (its row, with its optimization's status and text): the text it shows, and which one that is. */
export function shownTextOf(note: { text: string; editedAt: Date | null; optimization: { status: string; optimizedText: string | null } | null }): Shown {
  const { optimization } = note;
  return pick(note.text, note.editedAt !== null, optimization && { status: optimization.status, text: optimization.optimizedText });
}

/** A stored note's shown text. */
export const shownText = (note: Parameters<typeof shownTextOf>[0]): string => shownTextOf(note).text;

/**
 * A note as the API answers it (or a recording's joined parts, which no one edits): the text it
 * shows, and which one that is.
 */
export function presentedTextOf(note: { text: string; edited_at?: string | null; optimization?: { status: string; text?: string | null } | null }): Shown {
  const { optimization } = note;
  return pick(note.text, note.edited_at != null, optimization && { status: optimization.status, text: optimization.text ?? null });
}
