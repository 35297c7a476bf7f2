import { notFound } from "@/lib/http/errors.ts";
import { deleteDictionaryEntry, findDictionaryEntry } from "@/lib/dictionary/store/dictionary-entries.ts";
import { matchKey } from "@/lib/dictionary/match-key.ts";
import { toDictionaryEntry, type DictionaryEntry } from "@/lib/dictionary/schemas.ts";

/** Deletes the entry whose misspelling has the same match key; a missing entry is a 404. */
export async function deleteEntry({ userId, input }: { userId: string; input: { misspelling: string } }): Promise<DictionaryEntry> {
  const existing = await findDictionaryEntry({ userId, matchKey: matchKey(input.misspelling) });
  if (!existing) throw notFound(`The dictionary entry "${input.misspelling}"`);
  const deleted = await deleteDictionaryEntry(existing.id);
  if (deleted === 0) throw notFound(`The dictionary entry "${input.misspelling}"`);
  return toDictionaryEntry(existing);
}
