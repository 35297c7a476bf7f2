import { isEverydayWord } from "@/lib/dictionary/common-words.ts";
import { noteLanguage } from "@/lib/writer/note-language.ts";

// A post or summary may reword the note, never bring facts of its own: a name or a number the
// note does not have is the model's, not the person's. This finds them: numbers (digits, or a
// number word the note says as digits and back), and names — capitalized words inside a sentence —
// the note never uses in any case or form, and that are not everyday words (a title in Title Case). Languages that capitalize every noun (German) are checked for
// numbers only. Words the note was given with (its title, the dictionary's spellings) count as
// the note's.

const NUMBER_WORDS: Record<string, string> = {
  zero: "0", one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9", ten: "10",
  eleven: "11", twelve: "12", thirteen: "13", fourteen: "14", fifteen: "15", sixteen: "16", seventeen: "17", eighteen: "18",
  nineteen: "19", twenty: "20", thirty: "30", forty: "40", fifty: "50", sixty: "60", seventy: "70", eighty: "80", ninety: "90",
  hundred: "100", thousand: "1000", half: "50",
};
const NOUNS_CAPITALIZED = new Set(["de", "lb"]);

const fold = (s: string) => s.normalize("NFC").toLowerCase().replace(/[’‘]/g, "'");

/** The note's words and numbers as the check compares them. */
function vocabulary(text: string): { words: Set<string>; numbers: Set<string> } {
  const words = new Set(fold(text).match(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu) ?? []);
  const numbers = new Set((text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/[.,]/g, "")));
  for (const word of words) if (NUMBER_WORDS[word]) numbers.add(NUMBER_WORDS[word]);
  return { words, numbers };
}

/** The note has the word, or one of its forms ("Moves" in a title where the note says "moved"). */
function saysAWordLike(words: Set<string>, word: string): boolean {
  if (words.has(word)) return true;
  const stem = word.slice(0, Math.max(4, word.length - 2));
  return stem.length < word.length && [...words].some((w) => w.startsWith(stem));
}

/** Names (capitalized words not opening a sentence) and numbers in `written` that `note` does not have. */
export function newFacts(note: string, written: string, language?: string | null): string[] {
  const { words, numbers } = vocabulary(note);
  const found = new Set<string>();
  for (const match of written.matchAll(/\d+(?:[.,]\d+)*/g)) {
    if (!numbers.has(match[0].replace(/[.,]/g, ""))) found.add(match[0]);
  }
  if (NOUNS_CAPITALIZED.has(noteLanguage(note, language) ?? "")) return [...found];
  // A capitalized word after a letter, digit, comma or other mid-sentence mark (never after . ! ? : or a line break).
  for (const match of written.matchAll(/(?<=[\p{L}\p{N},;)\]]["'”’]?[^\S\n]+)(\p{Lu}[\p{L}\p{N}]*(?:['-][\p{L}\p{N}]+)*)/gu)) {
    const word = fold(match[1]);
    if (word === "i" || word.startsWith("i'") || isEverydayWord(word, language ?? "en") || saysAWordLike(words, word)) continue;
    found.add(match[1]);
  }
  return [...found];
}

/** "Acme" and "42"; "Acme", "Bob" and "42". */
export function listFacts(facts: string[]): string {
  const quoted = facts.slice(0, 5).map((f) => `“${f}”`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}` : quoted[0] ?? "";
}
