import { matchKey } from "@/lib/dictionary/match-key.ts";
import type { DictionaryEntry } from "@/lib/dictionary/matcher.ts";

/** The user's stored entries with the request's on top: the request wins for the same misspelling. */
export function mergeDictionaries(stored: DictionaryEntry[], request: DictionaryEntry[]): DictionaryEntry[] {
  const merged = new Map(stored.map((e) => [matchKey(e.misspelling), e]));
  for (const entry of request) merged.set(matchKey(entry.misspelling), entry);
  return [...merged.values()];
}
