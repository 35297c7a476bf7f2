import { FILLER_WORDS, isEverydayWord } from "@/lib/dictionary/common-words.ts";
import { rankUnits, unitsOf } from "@/lib/writer/sentences.ts";

// A title a person would write, offline, in the note's own words, order and casing (names keep
// their capitals: "Mr John"), never a fragment (issue 56: "Blows Young", "John Guess" for notes
// whose recognized words made no phrase). In turn:
// 1. the note's key phrase, if the note says it at least twice: RAKE-like (Rose et al. 2010)
//    candidate phrases — runs of content words between everyday words and punctuation — scored by
//    how often their words occur, weighted by how central the sentences holding them are (TextRank,
//    from the caller); a phrase said once is as likely a mishearing as a subject;
// 2. else the opening clause of its most central sentence, three to eight words ending on a content
//    word ("Meetings that run long cost us an hour");
// 3. else "Voice note, Dec 1" (the note's date, in its language).
// The insights' title (lib/insights) and a long post's title line (lib/posts) are both this one.

export const NOTE_TITLE_MAX = 60;
const INSIGHTS_TITLE_MAX = NOTE_TITLE_MAX;

const WORD = /[\p{L}\p{M}][\p{L}\p{M}\p{N}'’-]*|\p{N}+/gu;
// Words the everyday lists leave out that never make a title: what commitments and fillers are
// made of, and weekdays (a note about Monday is about something else).
const NEVER_TITLE = new Set(
  `remember forget forgot basically actually literally stuff thing things okay yeah gonna wanna todo
   monday tuesday wednesday thursday friday saturday sunday
   vergessen vergiss denk denke daran dran sollten sachen montag dienstag mittwoch donnerstag freitag samstag sonntag
   olvides olvidar deberíamos debería recuerda recordar creo cosas lunes martes miércoles jueves viernes sábado domingo
   oublie oublier devrait devrions penser pense aujourd'hui choses truc lundi mardi mercredi jeudi vendredi samedi dimanche`.split(/\s+/),
);
const FALLBACK: Record<string, string> = { en: "Voice note", de: "Sprachnotiz", es: "Nota de voz", fr: "Note vocale" };
const MAX_PHRASE_WORDS = 3;
const TITLE_SENTENCES = 60;

const fold = (word: string) => word.normalize("NFC").toLowerCase().replace(/’/g, "'");
const lang = (language: string) => (language.slice(0, 2).toLowerCase() in FALLBACK ? language.slice(0, 2).toLowerCase() : "en");

type WordInfo = { key: string; content: boolean };

/** The word's folded form and whether it is a content word, looked up once per distinct word. */
function infoOf(word: string, language: string, known: Map<string, WordInfo>): WordInfo {
  let info = known.get(word);
  if (!info) {
    info = { key: fold(word), content: contentWord(word, language) };
    known.set(word, info);
  }
  return info;
}

function contentWord(word: string, language: string): boolean {
  const key = fold(word);
  if (key.length < 3 && !/^\p{Lu}{2}$/u.test(word)) return false; // "AI", "EU" are names
  if (/^\p{N}+$/u.test(key) || FILLER_WORDS.has(key) || NEVER_TITLE.has(key)) return false;
  return !isEverydayWord(key.replace(/^[-']+|[-']+$/g, ""), language);
}

// Words that join two content words into one phrase ("Umzug des Büros", "Voyage en Bretagne").
const LINKS: Record<string, ReadonlySet<string>> = {
  en: new Set(["of", "for"]),
  de: new Set(["des", "der", "im", "am", "zum", "zur", "für", "vom"]),
  es: new Set(["de", "del", "la", "las", "los", "en", "para"]),
  fr: new Set(["de", "du", "des", "la", "d'", "en", "à", "au", "aux", "pour"]),
};
const MAX_LINKS = 2;

type Token = { key: string; link: boolean };
type Phrase = { tokens: Token[]; count: number };

/** Candidate phrases of a run of content words (and links between them): every n-gram of 1–3 content words. */
function addPhrases(run: Token[], phrases: Map<string, Phrase>) {
  const content = run.flatMap((t, i) => (t.link ? [] : [i]));
  for (let a = 0; a < content.length; a++) {
    for (let b = a; b < Math.min(content.length, a + MAX_PHRASE_WORDS); b++) {
      const tokens = run.slice(content[a], content[b] + 1);
      const id = tokens.map((t) => t.key).join(" ");
      const known = phrases.get(id);
      if (known) known.count += 1;
      else phrases.set(id, { tokens, count: 1 });
    }
  }
}

/**
 * The title of a text (a note, a post's source), from its sentences as the offline writers rank
 * them. `notOpening`: a title line above a post that opens with the note's first sentence must not
 * repeat it: a clause of another sentence, else the key phrase even if said once; null if neither.
 */
export function titleOf(text: string, language: string | null, { notOpening = false, recordedAt }: { notOpening?: boolean; recordedAt?: Date } = {}): string | null {
  const units = unitsOf(text, language ?? undefined);
  const sentences = units.map((u) => u.text);
  const ranks = units.length ? rankUnits(units) : [];
  const code = language ?? "en";
  if (!notOpening) return noteTitle(sentences, ranks, code, recordedAt);
  const phrase = keyPhraseTitle(sentences, ranks, code);
  if (phrase) return phrase;
  const clause = clauseTitle(sentences.slice(1), ranks.slice(1), code);
  return clause ?? keyPhraseTitle(sentences, ranks, code, { once: true });
}

/** The note's title (see above) from its sentences and their ranks; `recordedAt` names it when its words give none. */
export function noteTitle(sentences: string[], ranks: number[], language: string, recordedAt?: Date): string {
  return keyPhraseTitle(sentences, ranks, language) ?? clauseTitle(sentences, ranks, language) ?? datedTitle(language, recordedAt);
}

const MIN_CLAUSE_WORDS = 3;
const MAX_CLAUSE_WORDS = 8;
// Where a sentence's first clause ends: punctuation, or a word that starts another clause.
const CLAUSE_END = /[,;:()\u2013\u2014]|\s(?:because|but|so that|which|and then|weil|aber|porque|pero|parce que|mais)\s/iu;

/** The opening clause of the most central sentence that has one of three to eight words, ending on a content word. */
function clauseTitle(sentences: string[], ranks: number[], language: string): string | null {
  const order = sentences.map((_, i) => i).sort((a, b) => (ranks[b] ?? 0) - (ranks[a] ?? 0) || a - b);
  const known = new Map<string, WordInfo>();
  for (const i of order.slice(0, 5)) {
    const clause = sentences[i].split(CLAUSE_END)[0].replace(/[.!?…"“”«»]+$/u, "").trim();
    const words = clause.split(/\s+/).filter(Boolean).slice(0, MAX_CLAUSE_WORDS);
    while (words.length && !infoOf(words.at(-1)!.replace(/[^\p{L}\p{M}\p{N}'’-]/gu, ""), language, known).content) words.pop();
    const content = words.filter((w) => infoOf(w.replace(/[^\p{L}\p{M}\p{N}'’-]/gu, ""), language, known).content).length;
    if (words.length < MIN_CLAUSE_WORDS || content < 2) continue;
    const title = cutTitle(words.join(" ").replace(/[,;:]+$/u, ""));
    return title.charAt(0).toLocaleUpperCase(lang(language)) + title.slice(1);
  }
  return null;
}

function datedTitle(language: string, recordedAt?: Date): string {
  const code = lang(language);
  if (!recordedAt) return FALLBACK[code];
  const day = new Intl.DateTimeFormat(code, { month: "short", day: "numeric", timeZone: "UTC" }).format(recordedAt);
  return `${FALLBACK[code]}, ${day}`;
}

const cutTitle = (title: string) => {
  if (title.length <= INSIGHTS_TITLE_MAX) return title;
  const cut = title.slice(0, INSIGHTS_TITLE_MAX + 1).replace(/\s+\S*$/u, "");
  return cut || title.slice(0, INSIGHTS_TITLE_MAX);
};

/** The key phrase the note says at least twice, in its own casing (its first letter capital), never the note's first words; null if none. */
export function keyPhraseTitle(sentences: string[], ranks: number[], language: string, { once = false } = {}): string | null {
  const code = lang(language);
  const links = LINKS[code];
  const wordScore = new Map<string, number>();
  const surface = new Map<string, Map<string, number>>();
  const phrases = new Map<string, Phrase>();
  const known = new Map<string, WordInfo>();
  // A long note's subject is in its central sentences: phrases are gathered from the strongest
  // TITLE_SENTENCES only (5,000 words: 20 → 5 ms), in their order.
  const picked = sentences.length <= TITLE_SENTENCES
    ? sentences.map((_, i) => i)
    : sentences.map((_, i) => i).sort((a, b) => (ranks[b] ?? 0) - (ranks[a] ?? 0) || a - b).slice(0, TITLE_SENTENCES).sort((a, b) => a - b);
  picked.forEach((i) => {
    const sentence = sentences[i];
    const weight = 0.5 + Math.max(0, ranks[i] ?? 0);
    let run: Token[] = [];
    let pending: Token[] = [];
    let lastEnd = 0;
    const flush = () => {
      if (run.length) addPhrases(run, phrases);
      run = [];
      pending = [];
    };
    for (const match of sentence.matchAll(WORD)) {
      const word = match[0].replace(/['’-]+$/u, "");
      if (match.index > lastEnd + 1 || (match.index > lastEnd && sentence[lastEnd] !== " ")) flush(); // punctuation between words ends a phrase
      lastEnd = match.index + match[0].length;
      const { key, content } = infoOf(word, language, known);
      if (!content) {
        if (run.length && links.has(key) && pending.length < MAX_LINKS) pending.push({ key, link: true });
        else flush();
        continue;
      }
      wordScore.set(key, (wordScore.get(key) ?? 0) + weight);
      const forms = surface.get(key) ?? new Map<string, number>();
      forms.set(word, (forms.get(word) ?? 0) + 1);
      surface.set(key, forms);
      run.push(...pending, { key, link: false });
      pending = [];
    }
    flush();
  });
  if (!phrases.size) return null;

  const scored = [...phrases.values()]
    .map((p) => {
      const words = p.tokens.filter((t) => !t.link);
      const sum = words.reduce((total, t) => total + (wordScore.get(t.key) ?? 0), 0);
      // A single word is a poor title; a phrase said again is the note's subject.
      return { ...p, score: sum * Math.sqrt(p.count) * (words.length === 1 ? 0.8 : 1) };
    })
    .sort((a, b) => b.score - a.score);
  const formOf = (t: Token) => (t.link ? t.key : [...surface.get(t.key)!.entries()].sort((a, b) => b[1] - a[1])[0][0]);
  const opening = (sentences.slice(0, 2).join(" ").match(WORD) ?? []).slice(0, 12).map(fold);
  const isOpening = (tokens: Token[]) => tokens.every((t, i) => opening[i] === t.key);

  for (const phrase of scored.slice(0, 8)) {
    // Said once, a phrase is as likely a mishearing as the subject; one word is no title.
    if ((!once && phrase.count < 2) || phrase.tokens.filter((t) => !t.link).length < (once ? 1 : 2) || isOpening(phrase.tokens)) continue;
    const title = phrase.tokens.map(formOf).join(" ");
    return cutTitle(title.charAt(0).toLocaleUpperCase(code) + title.slice(1));
  }
  return null;
}
