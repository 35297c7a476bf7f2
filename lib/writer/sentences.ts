// Sentences of a note and how central each one is, for the offline writers (posts, insights). Ranking is
// TextRank (Mihalcea & Tarau 2004): sentences are nodes, edges weigh the words two sentences
// share, and PageRank over that graph favours sentences that say what many others say.

export type Unit = {
  text: string;
  /** Which paragraph of the note it is in. */
  paragraph: number;
  /** A line of a list ("- item", "1. item"): kept on its own line. */
  listItem: boolean;
};

const LIST_ITEM = /^\s*(?:[-*•–]|\d{1,3}[.)])\s+/;
// A full stop after these is not the end of a sentence ("e.g. this", "Dr. Li", "z. B. so").
const ABBREVIATIONS = new Set(["dr", "mr", "mrs", "ms", "prof", "vs", "etc", "e.g", "i.e", "z.b", "bzw", "usw", "ca", "sr", "sra", "st", "nr", "no", "p.ej", "approx"]);

// Sentence ends as Unicode (UAX #29) and the language know them, through Intl.Segmenter: "。",
// "？", "¿…?" and "¡…!" included, which a regex of English punctuation missed (Japanese text was one
// sentence). A segment that ends in an abbreviation or an initial is joined to the next one.
function splitSentences(line: string, language?: string): string[] {
  const out: string[] = [];
  for (const { segment } of new Intl.Segmenter(language, { granularity: "sentence" }).segment(line)) {
    const sentence = segment.trim();
    if (!sentence) continue;
    const lastWord = /([\p{L}.]+)[.]$/u.exec(out.at(-1)?.replace(/["'»”’)\]]+$/u, "") ?? "")?.[1]?.toLowerCase() ?? "";
    if (out.length && (ABBREVIATIONS.has(lastWord) || /^\p{L}$/u.test(lastWord))) out[out.length - 1] += ` ${sentence}`;
    else out.push(sentence);
  }
  return out;
}

/** The note's sentences and list items, in order, with their paragraph. */
export function unitsOf(text: string, language?: string): Unit[] {
  const units: Unit[] = [];
  const paragraphs = text.split(/\n[ \t]*\n/).map((p) => p.trim()).filter(Boolean);
  paragraphs.forEach((paragraph, index) => {
    let prose: string[] = [];
    const flush = () => {
      for (const sentence of splitSentences(prose.join(" ").replace(/[ \t]+/g, " "), language)) units.push({ text: sentence, paragraph: index, listItem: false });
      prose = [];
    };
    for (const line of paragraph.split("\n")) {
      if (LIST_ITEM.test(line)) {
        flush();
        units.push({ text: line.trim().replace(/[ \t]+/g, " "), paragraph: index, listItem: true });
      } else prose.push(line.trim());
    }
    flush();
  });
  return units;
}

const contentWords = (sentence: string) =>
  new Set(Array.from(sentence.toLowerCase().matchAll(/[\p{L}\p{N}]{4,}/gu), (m) => m[0]));

/** A score per unit (higher: more central); deterministic, earlier units win ties. */
export function rankUnits(units: Unit[], iterations = 30, damping = 0.85): number[] {
  const n = units.length;
  const words = units.map((u) => contentWords(u.text));
  // Shared words per pair, from an inverted index (sparse: long notes stay linear-ish). A word in
  // most sentences says nothing about any of them, like a stop word in any language.
  const postings = new Map<string, number[]>();
  words.forEach((set, i) =>
    set.forEach((word) => {
      const list = postings.get(word);
      if (list) list.push(i);
      else postings.set(word, [i]);
    }),
  );
  const shared: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  for (const list of postings.values()) {
    if (list.length < 2 || (n > 4 && list.length > n / 2)) continue;
    for (let a = 0; a < list.length; a += 1)
      for (let b = a + 1; b < list.length; b += 1) shared[list[a]].set(list[b], (shared[list[a]].get(list[b]) ?? 0) + 1);
  }
  const edges: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  shared.forEach((pairs, i) =>
    pairs.forEach((count, j) => {
      const weight = count / (Math.log(words[i].size + 1) + Math.log(words[j].size + 1));
      edges[i].set(j, weight);
      edges[j].set(i, weight);
    }),
  );
  const totals = edges.map((row) => [...row.values()].reduce((a, b) => a + b, 0));
  let scores = new Float64Array(n).fill(1);
  for (let round = 0; round < iterations; round += 1) {
    const next = new Float64Array(n).fill(1 - damping);
    edges.forEach((row, j) => row.forEach((weight, i) => (next[i] += (damping * weight * scores[j]) / totals[j])));
    scores = next;
  }
  // A short note's graph is sparse, so centrality alone ranks poorly; where a sentence stands and
  // how much it says count too. Notes, like articles, state a point first, and each paragraph
  // opens with its topic; a three-word aside is rarely worth a place in a short post.
  const top = Math.max(...scores, 0) || 1;
  return Array.from(scores, (score, i) => {
    const wordCount = units[i].text.split(/\s+/).length;
    const opensParagraph = i === 0 || units[i - 1].paragraph !== units[i].paragraph;
    return (
      (0.6 * score) / top +
      (i === 0 ? 0.4 : opensParagraph && !units[i].listItem ? 0.25 : 0) +
      (wordCount < 5 ? -0.2 : wordCount <= 30 ? 0.1 : 0)
    );
  });
}

/**
 * Whether two sentences say the same: the same words, case and punctuation aside, or, for long
 * ones, nearly (nine words in ten shared: heard twice a little differently). People repeat
 * themselves in voice notes ("what your country can do for you" twice), and a summary or a post
 * that says one thing twice reads as a machine's. Short sentences that differ in a word ("call
 * Anna at five", "call Anna at six") are different things said.
 */
export function repeats(a: string, b: string): boolean {
  return repeatsWords(wordsOfSentence(a), wordsOfSentence(b));
}

const wordsOfSentence = (text: string) => Array.from(text.toLowerCase().matchAll(/[\p{L}\p{N}']+/gu), (m) => m[0]);
// A near repeat shares nine in ten words (as a Jaccard index of the two sentences' words).
const NEAR = 0.9;

function repeatsWords(x: string[], y: string[], key = x.join(" ")): boolean {
  if (key === y.join(" ")) return true;
  if (Math.min(x.length, y.length) < 8) return false;
  const setX = new Set(x);
  const setY = new Set(y);
  const shared = [...setX].filter((w) => setY.has(w)).length;
  return shared / (setX.size + setY.size - shared) >= NEAR;
}

/**
 * The units without those that repeat an earlier one (the first time a thing is said is kept).
 * Linear in the note, not quadratic (a 480 KB edit took 14 s in its insights, issue 60): an exact
 * repeat is found by its words, and a near one only among the kept units that share one of the
 * unit's rarest words. A near repeat Y of X shares at least 9 in 10 of X's distinct words, so of any
 * ⌊|X|/10⌋ + 1 of them it has one; the rarest are taken, to look at as few units as possible.
 */
export function withoutRepeats<T extends Pick<Unit, "text">>(units: T[]): T[] {
  const kept: T[] = [];
  const keptWords: string[][] = [];
  const exact = new Set<string>();
  const postings = new Map<string, number[]>();
  for (const unit of units) {
    const x = wordsOfSentence(unit.text);
    const key = x.join(" ");
    if (exact.has(key)) continue;
    const distinct = [...new Set(x)];
    if (x.length >= 8) {
      const rarest = distinct.sort((a, b) => (postings.get(a)?.length ?? 0) - (postings.get(b)?.length ?? 0)).slice(0, Math.floor(distinct.length / 10) + 1);
      const candidates = new Set(rarest.flatMap((word) => postings.get(word) ?? []));
      if ([...candidates].some((i) => repeatsWords(x, keptWords[i], key))) continue;
    }
    const at = kept.push(unit) - 1;
    keptWords.push(x);
    exact.add(key);
    for (const word of distinct) {
      const list = postings.get(word);
      if (list) list.push(at);
      else postings.set(word, [at]);
    }
  }
  return kept;
}
