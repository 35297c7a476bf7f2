import { FILLER_WORDS, isEverydayWord } from "@/lib/dictionary/common-words.ts";
import { rankUnits, unitsOf } from "@/lib/writer/sentences.ts";

// A title made of the note's key phrase (RAKE, Rose et al. 2010, weighted by TextRank): everyday
// words and punctuation split the sentences into runs of content words; a word scores by how often
// it recurs and how central its sentences are, a phrase by its words. The best run of one to three
// words that is not how the note opens, title-cased, is the title ("Kubernetes Migration").

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
const MAX_WORDS = 3;
const FALLBACK: Record<string, string> = { en: "A Note", de: "Eine Notiz", es: "Una nota", fr: "Une note" };

const fold = (s: string) => s.normalize("NFC").toLowerCase();

// Verb endings weigh half: a title names a thing ("Editor"), rarely an action ("Shipped").
const VERB_ENDINGS: Record<string, RegExp> = {
  en: /(?:ed|ing)$/,
  de: /^ge\p{L}+(?:t|en)$/u,
  es: /(?:amos|emos|imos|aron|ieron|ado|ido|ando|iendo)$/,
  fr: /(?:ons|ez|ait|aient|é|ée|és)$/,
};
const weight = (word: string, language: string | null) => (VERB_ENDINGS[language ?? "en"]?.test(fold(word)) ? 0.5 : 1);

/** Whether a word can be part of a key phrase: not everyday, not a filler, not a number, not an English adverb. */
function contentWord(word: string, language: string | null): boolean {
  const key = fold(word);
  if (key.length < 3 || !/\p{L}/u.test(key) || FILLER_WORDS.has(key) || isEverydayWord(key, language)) return false;
  return !((language ?? "en") === "en" && /ly$/.test(key) && key.length > 4);
}

/** Runs of content words per sentence, split at everyday words and punctuation. */
function runsOf(sentence: string, language: string | null): string[][] {
  const runs: string[][] = [[]];
  let end = 0;
  for (const match of sentence.matchAll(WORD)) {
    const between = sentence.slice(end, match.index);
    end = match.index + match[0].length;
    if (/[^\s]/u.test(between)) runs.push([]);
    if (contentWord(match[0], language)) runs.at(-1)!.push(match[0]);
    else runs.push([]);
  }
  return runs.filter((run) => run.length > 0);
}

function titleCase(words: string[]): string {
  // A word with a capital already (a name, "iPhone", "API") keeps its spelling.
  return words.map((w) => (/\p{Lu}/u.test(w) ? w : w[0].toLocaleUpperCase() + w.slice(1))).join(" ");
}

const opening = (text: string) => fold(text).replace(/[^\p{L}\p{N}]+/gu, " ").trim();

/** The note's key phrase, title-cased; never the note's first words. */
export function keyPhraseTitle(text: string, language: string | null = null): string {
  const units = unitsOf(text, language ?? undefined);
  const ranks = rankUnits(units);
  const score = new Map<string, number>();
  const sentences = units.map((unit, i) => {
    const runs = runsOf(unit.text, language);
    for (const word of new Set(runs.flat().map(fold))) score.set(word, (score.get(word) ?? 0) + (1 + ranks[i]) * weight(word, language));
    return runs;
  });
  const candidates = new Map<string, { words: string[]; score: number; at: number }>();
  let at = 0;
  for (const runs of sentences)
    for (const run of runs)
      for (let size = 1; size <= Math.min(MAX_WORDS, run.length); size += 1)
        for (let from = 0; from + size <= run.length; from += 1) {
          const words = run.slice(from, from + size);
          const key = words.map(fold).join(" ");
          // Longer phrases say more, but only words that carry weight of their own lift them.
          const value = words.reduce((sum, w) => sum + score.get(fold(w))!, 0) / size ** 0.75;
          const seen = candidates.get(key);
          if (seen) seen.score += 0.5;
          else candidates.set(key, { words, score: value, at: at++ });
        }
  const note = opening(text);
  const best = [...candidates.values()]
    .sort((a, b) => b.score - a.score || b.words.length - a.words.length || a.at - b.at)
    .find(({ words }) => !note.startsWith(opening(words.join(" "))));
  return best ? titleCase(best.words) : (FALLBACK[language ?? "en"] ?? FALLBACK.en);
}
