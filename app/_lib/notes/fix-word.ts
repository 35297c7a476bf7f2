import { replaceWord } from "@/app/_lib/notes/note-text.ts";

// "Fix a word" as text edits: the tapped place only, every place in the note, or every place and
// every note from now on (a dictionary entry; the text here is fixed like "all"). Pure, so the
// note and a recording in parts fix and undo the same way.

export type FixScope = "one" | "note" | "everywhere";
export type WordFix = { misspelling: string; correct: string; scope: FixScope; /** Where the tapped word starts in the note's text. */ at: number | null };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Where `word` stands in `text` as whole words, any case: the start of each place. */
export function placesOf(text: string, word: string): number[] {
  const trimmed = word.trim();
  if (!trimmed) return [];
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(trimmed)}(?![\\p{L}\\p{N}])`, "giu");
  return [...text.matchAll(pattern)].map((m) => m.index);
}

/** The note's text with the fix applied, and how many places changed. */
export function applyFix(text: string, fix: WordFix): { text: string; count: number } {
  if (fix.scope === "one") {
    if (fix.at === null || !placesOf(text, fix.misspelling).includes(fix.at)) return { text, count: 0 };
    return { text: text.slice(0, fix.at) + fix.correct + text.slice(fix.at + fix.misspelling.trim().length), count: 1 };
  }
  return replaceWord(text, fix.misspelling.trim(), fix.correct);
}

/**
 * A fix over a recording's parts, shown joined by `separator` (empty parts left out): each part's
 * new text (unchanged parts as they were) and how many places changed.
 */
export function applyFixToParts(parts: string[], fix: WordFix, separator = "\n\n"): { texts: string[]; count: number } {
  let offset = 0;
  let count = 0;
  const texts = parts.map((part) => {
    if (!part) return part;
    const start = offset;
    offset += part.length + separator.length;
    const at = fix.at !== null && fix.at >= start && fix.at < start + part.length ? fix.at - start : null;
    if (fix.scope === "one" && at === null) return part;
    const done = applyFix(part, { ...fix, at });
    count += done.count;
    return done.text;
  });
  return { texts, count };
}

const places = (n: number) => `${n} ${n === 1 ? "place" : "places"}`;

/** What the toast says after a fix. */
export function fixMessage(fix: WordFix, count: number): string {
  if (fix.scope !== "everywhere") return count ? `Fixed ${places(count)} in this note.` : `“${fix.misspelling}” is not in this note.`;
  return `“${fix.misspelling}” will be written “${fix.correct}” from now on${count ? `; fixed ${places(count)} here` : ""}.`;
}
