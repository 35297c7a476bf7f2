import { noteLanguage } from "@/lib/writer/note-language.ts";

// Pieces every prompt to the writer carries: the note's language by name, and the person's own
// spellings (dictionary) that occur in the note, to be written exactly.

const NAMES: Record<string, string> = { en: "English", de: "German", es: "Spanish", fr: "French", it: "Italian", pt: "Portuguese", nl: "Dutch" };

/** The language to write in: the note's own (`language`, ISO 639-1), else guessed from its words. */
export function languageName(text: string, language?: string | null): string {
  const code = noteLanguage(text, language);
  return (code && NAMES[code]) ?? "the same language as the note";
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether the text uses `term` as whole words (any case). */
export function mentions(text: string, term: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(term)}(?![\\p{L}\\p{N}])`, "iu").test(text);
}

/** The spellings among `terms` that the text uses (whole words, any case), at most 50. */
export function termsIn(terms: string[], text: string): string[] {
  return [...new Set(terms)].filter((term) => mentions(text, term)).slice(0, 50);
}
