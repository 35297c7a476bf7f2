import { everyWordIs, isEverydayWord } from "@/lib/dictionary/common-words.ts";
import { SPOKEN_ENGLISH } from "@/lib/dictionary/spoken-english.ts";

// The wider list "Fix a word" weighs a word by, on the server: everyday words (common-words.ts,
// which the browser also holds) and the 10,000 most spoken English words ("blows", "greatly"). A
// word in it is most likely the person's wording, fixed where it was tapped; a name or a term
// outside it is fixed in the whole note. English words count in every language, as people mix
// them in (the rule of isEverydayWord).

let spoken: ReadonlySet<string> | undefined;
const spokenWords = () => (spoken ??= new Set(SPOKEN_ENGLISH.split(/\s+/)));

/** Whether every word of `phrase` is a common word (everyday in `language`, or among the most spoken English ones). */
export function isCommonPhrase(phrase: string, language?: string | null): boolean {
  return everyWordIs(phrase, (w) => isEverydayWord(w, language) || isSpoken(w));
}

/** A word among the most spoken English ones; one with an apostrophe ("country's") when each of its parts is. */
function isSpoken(word: string): boolean {
  return word.normalize("NFC").toLowerCase().split(/['’]/).every((part) => !part || spokenWords().has(part));
}
