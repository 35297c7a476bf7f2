import { suggestFromEdit, type DictionarySuggestion } from "@/lib/dictionary/suggest-from-edit.ts";
import { computeTask } from "@/lib/compute/task.ts";

// Suggestions from one edit, kept to what the recognizer wrote (`heard`). Pure, for the compute
// pool: a 1M-character note's edit is aligned word by word.

const wordsOf = (text: string) => ` ${text.normalize("NFKC").toLocaleLowerCase().replace(/[^\p{L}\p{N}'’]+/gu, " ").trim()} `;

export type HeardSuggestionsInput = { before: string; after: string; heard: string; known: ReadonlySet<string>; language: string };

export function heardSuggestions({ before, after, heard, known, language }: HeardSuggestionsInput): DictionarySuggestion[] {
  const recognized = wordsOf(heard);
  return suggestFromEdit({ before, after, known, language }).filter((s) => recognized.includes(wordsOf(s.misspelling)));
}

export const heardSuggestionsTask = computeTask("heardSuggestions", heardSuggestions);
