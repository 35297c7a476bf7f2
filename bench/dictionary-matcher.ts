// Benchmark: trie matcher vs. one RegExp per entry, on 10,000 synthetic entries
// and a ~10,000-word transcript. Everything is seeded, so runs are comparable.
// Run: npx tsx bench/dictionary-matcher.ts

import { compileDictionary, type DictionaryEntry } from "@/lib/dictionary/matcher.ts";
import { seededRandom } from "@/bench/random.ts";

const ENTRY_COUNT = 10_000;
const TRANSCRIPT_WORDS = 10_000;
const HIT_RATE = 0.035;
const TRIE_RUNS = 21;
const NAIVE_RUNS = 3;

const random = seededRandom(20240601);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const capitalize = (word: string): string => word[0].toUpperCase() + word.slice(1);

const SYLLABLES = ["kra", "zo", "ven", "tul", "mib", "qua", "rex", "lo", "sny", "dor", "vak", "pli", "zem", "fyr", "gno", "huk", "jas", "wex", "yob", "tri"];
const FILLER = (
  "the a and to of in is it that we so um uh like you know this for on with our " +
  "then just really think going have be will can was what they about there next week " +
  "deploy service team meeting update release customer data model build test review"
).split(" ");
const fillerSet = new Set(FILLER);

function inventWord(): string {
  const syllableCount = 2 + Math.floor(random() * 3);
  let word = "";
  for (let i = 0; i < syllableCount; i++) word += pick(SYLLABLES);
  return word;
}

// Phrases reuse words from a shared pool so multi-word entries share prefixes
// with single-word ones, as real dictionaries do ("post" / "post gress").
function buildEntries(): { entries: DictionaryEntry[]; phrases: string[][] } {
  const pool = new Set<string>();
  while (pool.size < 15_000) {
    const word = inventWord();
    if (!fillerSet.has(word)) pool.add(word);
  }
  const words = [...pool];
  const seen = new Set<string>();
  const entries: DictionaryEntry[] = [];
  const phrases: string[][] = [];
  while (entries.length < ENTRY_COUNT) {
    const roll = random();
    const length = roll < 0.6 ? 1 : roll < 0.9 ? 2 : 3;
    const phrase = Array.from({ length }, () => pick(words));
    const misspelling = phrase.join(" ");
    if (seen.has(misspelling)) continue;
    seen.add(misspelling);
    phrases.push(phrase);
    entries.push({ misspelling, correctSpelling: phrase.map(capitalize).join("") });
  }
  return { entries, phrases };
}

function buildTranscript(phrases: string[][]): string {
  const parts: string[] = [];
  let wordCount = 0;
  while (wordCount < TRANSCRIPT_WORDS) {
    let words: string[];
    if (random() < HIT_RATE) {
      const casing = random();
      words = pick(phrases).map((w) => (casing < 0.6 ? w : casing < 0.8 ? w.toUpperCase() : capitalize(w)));
    } else {
      words = [pick(FILLER)];
    }
    for (const word of words) {
      const gap = parts.length === 0 ? "" : random() < 0.05 ? "\n" : random() < 0.05 ? "  " : " ";
      const punctuation = random() < 0.08 ? pick([",", ".", "?", "!"]) : "";
      parts.push(gap + word + punctuation);
      wordCount += 1;
    }
  }
  return parts.join("");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timeRuns<T>(runs: number, work: () => T): { medianMs: number; result: T } {
  const durations: number[] = [];
  let result = work();
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    result = work();
    durations.push(performance.now() - started);
  }
  return { medianMs: median(durations), result };
}

// The baseline a first implementation would write: one case-insensitive,
// whole-word RegExp per entry, longest phrases first so it can compete on output.
function compileNaive(entries: readonly DictionaryEntry[]) {
  const ordered = [...entries].sort((a, b) => b.misspelling.split(" ").length - a.misspelling.split(" ").length);
  const rules = ordered.map((entry) => {
    const body = entry.misspelling
      .trim()
      .split(/\s+/)
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("\\s+");
    return { pattern: new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, "giu"), replacement: entry.correctSpelling };
  });
  return (text: string) => {
    let replacements = 0;
    for (const rule of rules) {
      text = text.replace(rule.pattern, () => {
        replacements += 1;
        return rule.replacement;
      });
    }
    return { text, replacements };
  };
}

const ms = (value: number): string => `${value.toFixed(2)} ms`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const { entries, phrases } = buildEntries();
const transcript = buildTranscript(phrases);
console.log(`entries: ${entries.length} (${phrases.filter((p) => p.length > 1).length} multi-word)`);
console.log(`transcript: ${transcript.split(/\s+/).length} words, ${transcript.length} chars`);

const trieCompile = timeRuns(5, () => compileDictionary(entries));
const trieApply = timeRuns(TRIE_RUNS, () => trieCompile.result.apply(transcript));
console.log(`trie compile: ${ms(trieCompile.medianMs)} (median of 5)`);
console.log(`trie apply: ${ms(trieApply.medianMs)} (median of ${TRIE_RUNS})`);
console.log(`trie replacements: ${trieApply.result.replacements} (spans whose text changed)`);

const naiveCompile = timeRuns(3, () => compileNaive(entries));
const naiveApply = timeRuns(NAIVE_RUNS, () => naiveCompile.result(transcript));
console.log(`naive compile: ${ms(naiveCompile.medianMs)} (median of 3)`);
console.log(`naive apply: ${ms(naiveApply.medianMs)} (median of ${NAIVE_RUNS})`);
console.log(`naive replacements: ${naiveApply.result.replacements} (every match, including already-correct ones)`);
console.log(`same output: ${naiveApply.result.text === trieApply.result.text ? "yes" : "no"}`);

console.log(`speed-up, apply: ${(naiveApply.medianMs / trieApply.medianMs).toFixed(0)}x`);
console.log(
  `speed-up, compile + apply: ${((naiveCompile.medianMs + naiveApply.medianMs) / (trieCompile.medianMs + trieApply.medianMs)).toFixed(0)}x`,
);
console.log(`peak RSS: ${mb(process.resourceUsage().maxRSS * 1024)}, current RSS: ${mb(process.memoryUsage().rss)}`);
