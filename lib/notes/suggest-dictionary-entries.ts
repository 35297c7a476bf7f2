import { db } from "@/lib/db/client.ts";
import type { Db } from "@/lib/db/types.ts";
import type { DictionarySuggestion } from "@/lib/dictionary/suggest-from-edit.ts";
import { listDictionaryMatchKeys } from "@/lib/dictionary/store/dictionary-entries.ts";
import { compute } from "@/lib/compute/pool.ts";
import { heardSuggestionsTask } from "@/lib/dictionary/heard-suggestions.ts";
import { getOwnedNote } from "@/lib/notes/store/owned-note.ts";

/** The match keys of the user's dictionary: what is known needs no suggestion. */
async function knownKeys(prisma: Db, userId: string): Promise<Set<string>> {
  const rows = await listDictionaryMatchKeys({ userId, tx: prisma });
  return new Set(rows.map((row) => row.matchKey));
}

/**
 * Suggestions from one edit of a user's transcript, leaving out what their dictionary holds and
 * what the recognizer never wrote in it (`heard`: the note's recognized text). An entry corrects
 * the recognizer; a word it did not write is the person's own wording, and an Undo of a fix
 * ("prudently" back to "greatly") would otherwise be offered as the fix's reverse.
 */
export async function suggestionsForEdit({
  userId,
  before,
  after,
  heard,
  language,
}: {
  userId: string;
  before: string;
  after: string;
  heard: string;
  language: string;
}): Promise<DictionarySuggestion[]> {
  if (before === after) return [];
  const known = await knownKeys(await db(), userId);
  // Aligned in the compute pool (lib/dictionary/heard-suggestions.ts): a note may hold 1M characters.
  return compute(userId, heardSuggestionsTask, { before, after, heard, known, language });
}

/** Suggestions from everything the user changed: the recognizer's own text against their current text. */
export async function suggestDictionaryEntries({
  userId,
  id,
  input,
}: {
  userId: string;
  id: string;
  input: { limit: number };
}): Promise<{ dictionary_suggestions: DictionarySuggestion[] }> {
  const prisma = await db();
  const row = await getOwnedNote({ userId, id, tx: prisma }, { rawText: true, text: true, language: true });
  const suggestions = await suggestionsForEdit({ userId, before: row.rawText, after: row.text, heard: row.rawText, language: row.language });
  return { dictionary_suggestions: suggestions.slice(0, input.limit) };
}
