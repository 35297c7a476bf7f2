import { isEverydayWord } from "@/lib/dictionary/common-words.ts";

// The note's language, for the closing line, hashtags and titles: the recognizer's when the note
// came from a recording, else a rough guess from which everyday-word list the note hits most. Four
// lists (en, de, es, fr) and a count of hits tell these four apart well on a sentence or more; a
// language-identification library would be a dependency for a closing line.

export const WRITER_LANGUAGES = ["en", "de", "es", "fr"] as const;
export type WriterLanguage = (typeof WRITER_LANGUAGES)[number];

const WORD = /[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;

/** en, de, es or fr by everyday-word hits; null when the note hits none of them. */
export function detectLanguage(text: string): WriterLanguage | null {
  const hits = new Map<WriterLanguage, number>();
  for (const [word] of text.slice(0, 5_000).matchAll(WORD)) {
    for (const language of WRITER_LANGUAGES) {
      // isEverydayWord counts English words in every language (people mix them in); only the
      // language's own list tells it apart.
      const own = language === "en" ? isEverydayWord(word, "en") : isEverydayWord(word, language) && !isEverydayWord(word, "en");
      if (own) hits.set(language, (hits.get(language) ?? 0) + 1);
    }
  }
  let best: WriterLanguage | null = null;
  for (const language of WRITER_LANGUAGES) if ((hits.get(language) ?? 0) > (best ? hits.get(best)! : 0)) best = language;
  return best;
}

/** The given language (ISO 639-1, "de-AT" → "de") or, when none is given, the guessed one. */
export function noteLanguage(text: string, given?: string | null): string | null {
  const code = given?.trim().slice(0, 2).toLowerCase();
  return code && /^[a-z]{2}$/.test(code) ? code : detectLanguage(text);
}
