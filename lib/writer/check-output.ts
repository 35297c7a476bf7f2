import { isEverydayWord } from "@/lib/dictionary/common-words.ts";
import { isCommonPhrase } from "@/lib/dictionary/common-phrase.ts";
import { listFacts, newFacts } from "@/lib/writer/new-facts.ts";
import { detectLanguage, noteLanguage, WRITER_LANGUAGES } from "@/lib/writer/note-language.ts";

// The one check every model output passes, whatever the task (clean-up, insights, posts,
// rewrites, answers), before anyone sees it: it has words; it has no control characters (random
// bytes from a broken model do); most of each part's words are the note's own, or common words
// (a model that wrote nonsense, "vokadi selumo", fails); it is in the note's language; and it
// brings no name or number the note does not have (new-facts.ts). A task whose own guard is
// stricter keeps it (the clean-up's guard holds it to the words said, so it asks only for text).
// The reason is in plain words, for the person: no counts or codes.

/** One part of an answer: a title, a summary, a to-do, a post… `required`: the answer is nothing without it (a post's text). */
export type OutputPart = { name: string; text: string; required?: boolean };

export type OutputCheck = {
  /** What the answer must be made of: the note (or the passages an answer may use). */
  source: string;
  /** Words the model was given besides the note: the dictionary's spellings, a style's instructions, a question. */
  given?: string[];
  /** The note's language (ISO 639-1), when known. */
  language?: string | null;
  /** What the answer is, as the reason names it: "insights", "post", "rewrite", "answer", "clean-up". */
  what: string;
  /** The language the model was told to write in, when not the note's (an answer: the question's; null: not known, not checked). */
  writeIn?: string | null;
  /** Whose words the source is, as the reason says it: "your note's" (the default), "your notes'". */
  sourceName?: string;
  /** Only text (not empty, no control characters): for a task whose own guard checks its words. */
  textOnly?: boolean;
};

/** Who wrote it, as a person reads it. */
export type Writer = "writer" | "local-model";
const whoWrote = (by: Writer) => (by === "local-model" ? "the model on this machine" : "the writer");
const whose = (by: Writer) => (by === "local-model" ? "the model on this machine's" : "the writer's");

/** A part's words that must be someone's: at least this share of them the note's or common ones. */
export const KNOWN_SHARE_MIN = 1 / 3;
/** An answer this many words long or more is told apart by language (shorter ones say too little). */
const LANGUAGE_WORDS_MIN = 12;

// Control characters other than a tab or a line break, the replacement character (bytes that were
// not text) and noncharacters: nothing a person or a model means to write.
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFD\uFFFE\uFFFF]/u;
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*/gu;

const fold = (s: string) => s.normalize("NFC").toLowerCase().replace(/[’‘]/g, "'");
const wordsOf = (text: string) => (fold(text).match(WORD) ?? []).filter((w) => /\p{L}/u.test(w));

/** The note's words, and a test for a word it has in some form ("moves" where it says "moved"). */
function vocabulary(texts: string[]): (word: string) => boolean {
  const words = new Set(texts.flatMap(wordsOf));
  const stems = new Set([...words].map((w) => w.slice(0, 4)));
  return (word) => {
    if (words.has(word)) return true;
    const stem = word.slice(0, Math.max(4, word.length - 2));
    if (stem.length >= word.length || !stems.has(stem.slice(0, 4))) return false;
    for (const w of words) if (w.startsWith(stem)) return true;
    return false;
  };
}

/** Why this part is not words of the note, or null: too few of its words are the note's or common ones. */
function strangeWords(words: string[], known: (word: string) => boolean): boolean {
  if (!words.length) return false;
  const count = words.filter(known).length;
  return count / words.length < KNOWN_SHARE_MIN;
}

/**
 * Why an answer of `by` cannot be used, in plain words, or null when it can. `parts` are the
 * answer's parts as shown (an empty list of to-dos is no part; a blank title may be, as long as
 * the answer as a whole has words).
 */
export function checkOutput(parts: OutputPart[], check: OutputCheck, by: Writer): string | null {
  const all = parts.map((p) => p.text).join("\n");
  const required = parts.filter((p) => p.required);
  if (!all.trim() || (required.length && required.every((p) => !p.text.trim()))) return `${whoWrote(by)} wrote an empty ${check.what}`;
  if (NOT_TEXT.test(all)) return `${whose(by)} ${check.what} had characters that are not text`;
  if (!wordsOf(all).length) return `${whose(by)} ${check.what} had no words`;
  if (check.textOnly) return null;

  // The language the model was asked to write in (lib/writer/prompts/parts.ts: the note's, else guessed from its words).
  const language = noteLanguage(check.source, check.language);
  const asked = check.writeIn === undefined ? language : check.writeIn;
  const answered = wordsOf(all).length >= LANGUAGE_WORDS_MIN ? detectLanguage(all) : null;
  if (answered && asked && (WRITER_LANGUAGES as readonly string[]).includes(asked) && answered !== asked) {
    return `${whoWrote(by)} wrote in another language than ${check.writeIn === undefined ? (check.sourceName === "your notes'" ? "your notes" : "your note") : "it was asked"}`;
  }

  const fromNote = vocabulary([check.source, ...(check.given ?? [])]);
  // Told no language (a style of the person's own may ask for another): any list's everyday words count.
  const everyday = check.writeIn === null ? undefined : (language ?? undefined);
  const known = (word: string) => fromNote(word) || isEverydayWord(word, everyday) || isCommonPhrase(word, everyday);
  for (const part of parts) {
    if (strangeWords(wordsOf(part.text), known)) return `${whose(by)} ${part.name} was not in ${check.sourceName ?? "your note's"} words`;
  }

  const added = newFacts([check.source, ...(check.given ?? [])].join("\n"), all, check.language);
  if (added.length) return `${whose(by)} ${check.what} said ${listFacts(added)}, which the note does not`;
  return null;
}
