import { FILLER_WORDS, isEverydayWord } from "@/lib/dictionary/common-words.ts";
import { INSIGHTS_TITLE_MAX } from "@/lib/insights/schemas.ts";

// The note's key phrase as its title: RAKE-like (Rose et al. 2010) candidate phrases — runs of
// content words between everyday words and punctuation — scored by how often their words occur,
// weighted by how central the sentences holding them are (TextRank, from the caller).

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
const AND: Record<string, string> = { en: "and", de: "und", es: "y", fr: "et" };
const FALLBACK: Record<string, string> = { en: "Voice Note", de: "Sprachnotiz", es: "Nota de Voz", fr: "Note Vocale" };
const NOTES: Record<string, string> = { en: "Notes", de: "Notizen", es: "Notas", fr: "Notes" };
const MAX_PHRASE_WORDS = 3;
const TITLE_SENTENCES = 60;

const fold = (word: string) => word.normalize("NFC").toLowerCase().replace(/’/g, "'");
const lang = (language: string) => (language.slice(0, 2).toLowerCase() in AND ? language.slice(0, 2).toLowerCase() : "en");

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

/** The title: a short noun phrase of the top-ranked content words, title-cased, never the note's first words. */
export function keyPhraseTitle(sentences: string[], ranks: number[], language: string): string {
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
  if (!phrases.size) return FALLBACK[code];

  const scored = [...phrases.values()]
    .map((p) => {
      const words = p.tokens.filter((t) => !t.link);
      const sum = words.reduce((total, t) => total + (wordScore.get(t.key) ?? 0), 0);
      // A single word is a poor title; a phrase said again is the note's subject.
      return { ...p, score: sum * Math.sqrt(p.count) * (words.length === 1 ? 0.8 : 1) };
    })
    .sort((a, b) => b.score - a.score);
  const topWords = [...wordScore.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  const formOf = (t: Token) => (t.link ? t.key : [...surface.get(t.key)!.entries()].sort((a, b) => b[1] - a[1])[0][0]);
  const opening = (sentences.slice(0, 2).join(" ").match(WORD) ?? []).slice(0, 12).map(fold);
  const isOpening = (tokens: Token[]) => tokens.every((t, i) => opening[i] === t.key);

  for (const phrase of scored.slice(0, 8)) {
    let tokens = phrase.tokens;
    if (tokens.length === 1) {
      const second = topWords.find((k) => k !== tokens[0].key);
      if (second) tokens = [tokens[0], { key: AND[code], link: true }, { key: second, link: false }];
    }
    if (isOpening(tokens)) continue;
    return titleCase(tokens.map((t) => ({ word: formOf(t), link: t.link })), code);
  }
  return titleCase([...scored[0].tokens.map((t) => ({ word: formOf(t), link: t.link })), { word: NOTES[code], link: false }], code);
}

/** Each word with a capital first letter (its other letters as spoken: "API", "iPhone"), the conjunction aside; cut at a word. */
function titleCase(words: { word: string; link: boolean }[], code: string): string {
  const cased = words.map(({ word, link }, i) => (i > 0 && link ? word : word.charAt(0).toLocaleUpperCase(code) + word.slice(1)));
  let title = "";
  for (const word of cased) {
    const next = title ? `${title} ${word}` : word;
    if (next.length > INSIGHTS_TITLE_MAX) break;
    title = next;
  }
  return (title || cased[0].slice(0, INSIGHTS_TITLE_MAX)).replace(/\s+(?:and|und|y|et|of|for|des|der|de|del|la|en|du|à|au)$/u, "");
}
