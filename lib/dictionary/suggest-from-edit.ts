// Dictionary entries proposed from a user's edit of a transcript: the old and new text are
// aligned word by word, and each short replaced span ("cooper netties" → "Kubernetes") that looks
// like a misrecognition becomes a suggestion. Left out on purpose: insertions and deletions,
// spans of more than MAX_SPAN_WORDS words, replacements made of common words (style, not
// recognition), words that do not sound alike (synonyms, rewording), and changes inside a
// sentence the user mostly rewrote. A case-only change counts only for a proper noun: a word
// capitalized mid-sentence or with inner capitals ("github" → "GitHub"), not a sentence start.

import { foldToken, matchKey } from "@/lib/dictionary/match-key.ts";
import { CORRECT_SPELLING_MAX, MISSPELLING_MAX } from "@/lib/dictionary/schemas.ts";
import { matchedPairs } from "@/lib/dictionary/word-diff.ts";
import { COMMON_WORDS, FILLER_WORDS } from "@/lib/dictionary/common-words.ts";

export type DictionarySuggestion = { misspelling: string; correct_spelling: string; occurrences: number };

export const MAX_SPAN_WORDS = 3;
export const MAX_SUGGESTIONS = 20;
const MIN_SOUND_SIMILARITY = 0.5;
const MIN_SENTENCE_SIMILARITY = 0.5;

type Word = { start: number; end: number; key: string; sentence: number; sentenceStart: boolean };

const WORD = /[\p{L}\p{M}\p{N}]+(?:['’.\-][\p{L}\p{M}\p{N}]+)*/gu;

function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  let sentence = 0;
  let last = 0;
  for (const match of text.matchAll(WORD)) {
    const between = text.slice(last, match.index);
    const ends = /[.!?…]|\n/.test(between) || last === 0;
    if (ends && words.length) sentence += 1;
    words.push({ start: match.index, end: match.index + match[0].length, key: foldToken(match[0].replace(/’/g, "'")), sentence, sentenceStart: ends });
    last = match.index + match[0].length;
  }
  return words;
}

/** Letters as they sound, roughly: enough to tell "cooper netties"/"Kubernetes" from "meeting"/"call". */
function soundKey(s: string): string {
  return s
    .normalize("NFD")
    .toLowerCase()
    .replace(/[^\p{L}]/gu, "")
    .replace(/\p{M}/gu, "")
    .replace(/ph/g, "f")
    .replace(/ck/g, "k")
    .replace(/c(?=[eiy])/g, "s")
    .replace(/[cq]/g, "k")
    .replace(/x/g, "ks")
    .replace(/z/g, "s")
    .replace(/y/g, "i")
    .replace(/(.)\1+/g, "$1");
}

function similarity(a: string, b: string): number {
  if (!a.length || !b.length) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return 1 - previous[b.length] / Math.max(a.length, b.length);
}

const isCommon = (words: Word[]) => words.every((w) => COMMON_WORDS.has(w.key) || !/\p{L}/u.test(w.key));
const span = (text: string, words: Word[]) => text.slice(words[0].start, words.at(-1)!.end).replace(/\s+/g, " ");

// German capitalizes every noun, so there a capital mid-sentence says nothing about proper nouns.
const NOUNS_CAPITALIZED = new Set(["de", "lb"]);

function looksLikeProperNoun(oldSurface: string, newSurface: string, word: Word, language?: string): boolean {
  if (oldSurface === newSurface || COMMON_WORDS.has(word.key)) return false;
  const innerCapital = /.\p{Lu}/u.test(newSurface) && !/.\p{Lu}/u.test(oldSurface);
  const capitalizedMidSentence =
    !word.sentenceStart && !NOUNS_CAPITALIZED.has(language ?? "") && /^\p{Lu}/u.test(newSurface) && !/^\p{Lu}/u.test(oldSurface);
  return innerCapital || capitalizedMidSentence;
}

/** Proposed entries, most frequent first; `known` holds match keys already in the dictionary. */
export function suggestFromEdit({
  before,
  after,
  known = new Set(),
  language,
}: {
  before: string;
  after: string;
  known?: ReadonlySet<string>;
  /** ISO 639-1 code of the text, when known. */
  language?: string;
}): DictionarySuggestion[] {
  const oldWords = wordsOf(before);
  const newWords = wordsOf(after);
  const pairs = matchedPairs(oldWords.map((w) => w.key), newWords.map((w) => w.key));
  if (!pairs) return [];
  // matchedBefore[j]: how many of the new words before j were matched; a sentence is a run of words.
  const matchedBefore = new Int32Array(newWords.length + 1);
  const matchedNew = new Set(pairs.map(([, j]) => j));
  newWords.forEach((_, j) => (matchedBefore[j + 1] = matchedBefore[j] + (matchedNew.has(j) ? 1 : 0)));
  const sentenceSimilar = (from: number, to: number) => {
    let start = from;
    while (start > 0 && newWords[start - 1].sentence === newWords[from].sentence) start -= 1;
    let end = to;
    while (end < newWords.length && newWords[end].sentence === newWords[from].sentence) end += 1;
    const context = end - start - (to - from);
    const matched = matchedBefore[end] - matchedBefore[start] - (matchedBefore[to] - matchedBefore[from]);
    return context === 0 || matched / context >= MIN_SENTENCE_SIMILARITY;
  };

  const found: { misspelling: string; correct: string }[] = [];
  const consider = (oldSpan: Word[], newSpan: Word[], newFrom: number) => {
    while (oldSpan.length && FILLER_WORDS.has(oldSpan[0].key)) oldSpan = oldSpan.slice(1);
    while (oldSpan.length && FILLER_WORDS.has(oldSpan.at(-1)!.key)) oldSpan = oldSpan.slice(0, -1);
    if (!oldSpan.length || oldSpan.length > MAX_SPAN_WORDS || newSpan.length > MAX_SPAN_WORDS) return;
    if (isCommon(newSpan)) return;
    const correct = span(after, newSpan);
    const misspelling = span(before, oldSpan);
    if (/[,;:.!?()"]\s/.test(correct) || misspelling.length > MISSPELLING_MAX || correct.length > CORRECT_SPELLING_MAX) return;
    if (similarity(soundKey(misspelling), soundKey(correct)) < MIN_SOUND_SIMILARITY) return;
    if (!sentenceSimilar(newFrom, newFrom + newSpan.length)) return;
    found.push({ misspelling, correct });
  };

  let i = 0;
  let j = 0;
  for (const [mi, mj] of [...pairs, [oldWords.length, newWords.length] as [number, number]]) {
    if (mi > i && mj > j) consider(oldWords.slice(i, mi), newWords.slice(j, mj), j);
    if (mi < oldWords.length) {
      const oldSurface = before.slice(oldWords[mi].start, oldWords[mi].end);
      const newSurface = after.slice(newWords[mj].start, newWords[mj].end);
      if (looksLikeProperNoun(oldSurface, newSurface, newWords[mj], language) && sentenceSimilar(mj, mj + 1)) {
        found.push({ misspelling: oldSurface, correct: newSurface });
      }
    }
    i = mi + 1;
    j = mj + 1;
  }
  return rank(found, known);
}

/** One suggestion per misspelling (its most frequent correction), unknown ones only. */
function rank(found: { misspelling: string; correct: string }[], known: ReadonlySet<string>): DictionarySuggestion[] {
  const byKey = new Map<string, Map<string, DictionarySuggestion>>();
  for (const { misspelling, correct } of found) {
    const key = matchKey(misspelling);
    if (!key || known.has(key)) continue;
    const corrections = byKey.get(key) ?? new Map<string, DictionarySuggestion>();
    byKey.set(key, corrections);
    const entry = corrections.get(correct) ?? { misspelling: matchKey(misspelling), correct_spelling: correct, occurrences: 0 };
    entry.occurrences += 1;
    corrections.set(correct, entry);
  }
  const best = [...byKey.values()].map((corrections) =>
    [...corrections.values()].reduce((a, b) => (b.occurrences > a.occurrences ? b : a)),
  );
  return best.sort((a, b) => b.occurrences - a.occurrences).slice(0, MAX_SUGGESTIONS);
}
