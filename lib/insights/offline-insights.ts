import { rankUnits, unitsOf, withoutRepeats, type Unit } from "@/lib/writer/sentences.ts";
import { actionItemsOf, commitsTo } from "@/lib/insights/action-items.ts";
import { noteTitle } from "@/lib/writer/note-title.ts";
import { KEY_POINT_MAX, KEY_POINTS_MAX, SUMMARY_MAX } from "@/lib/insights/schemas.ts";
import type { InsightsDraft, InsightsInput, InsightsWriter } from "@/lib/insights/types.ts";

// The offline writer: pure functions of the text, no model, synchronous and fast (bench/insights.ts:
// a 5,000-word note in a few milliseconds), so an upload's answer carries insights without waiting.

const SUMMARY_SENTENCES = 3;
// An unpunctuated transcript (a recognizer without punctuation, before the clean-up) is one long
// "sentence"; it is cut into pieces of about this many words, at commas where there are some.
const LONG_UNIT_WORDS = 40;
const PIECE_WORDS = 25;

// TextRank compares every pair of sentences sharing a word: at 270 sentences (5,000 words) that
// alone took 40–60 ms here. Longer notes are ranked by how much of the note's vocabulary each
// sentence carries (a centroid summary; linear), with the same bonuses for position and length.
const TEXTRANK_MAX_SENTENCES = 120;

const LIST_MARKER = /^\s*(?:[-*•–]|\d{1,3}[.)])\s+/;
const FILLERS = /^(?:(?:um+|uh+|uhm|erm|so|and|okay|ok|well|also|und|äh|ähm|also|bueno|pues|eh|euh|bon|alors|ben)(?![\p{L}])[,\s]*)+/iu;
const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** The note's sentences (long unpunctuated runs cut into pieces), list markers and opening fillers dropped. */
export function sentencesOf(units: Unit[]): Unit[] {
  const out: Unit[] = [];
  for (const unit of units) {
    const pieces = words(unit.text).length <= LONG_UNIT_WORDS ? [unit.text] : cutLong(unit.text);
    for (const piece of pieces) {
      const clean = piece.replace(LIST_MARKER, "").replace(FILLERS, "").trim();
      if (clean) out.push({ ...unit, text: clean.charAt(0).toLocaleUpperCase() + clean.slice(1) });
    }
  }
  return out;
}

function cutLong(text: string): string[] {
  const pieces: string[] = [];
  let current: string[] = [];
  for (const word of words(text)) {
    current.push(word);
    if ((current.length >= PIECE_WORDS && /[,;:]$/.test(word)) || current.length >= PIECE_WORDS * 1.6) {
      pieces.push(current.join(" ").replace(/[,;:]$/, ""));
      current = [];
    }
  }
  if (current.length) pieces.push(current.join(" "));
  return pieces;
}

/** A score per sentence from the note-wide frequency of its words (≥ 4 letters, as rankUnits counts them). */
export function rankByWords(units: Unit[]): number[] {
  const wordsOf = units.map((u) => Array.from(u.text.toLowerCase().matchAll(/[\p{L}\p{N}]{4,}/gu), (m) => m[0]));
  const frequency = new Map<string, number>();
  for (const list of wordsOf) for (const word of new Set(list)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  // A word in most sentences says nothing about any of them.
  const weight = (word: string) => (frequency.get(word)! > units.length / 2 ? 0 : Math.log(1 + frequency.get(word)!));
  const raw = wordsOf.map((list) => [...new Set(list)].reduce((sum, w) => sum + weight(w), 0) / Math.sqrt(list.length + 1));
  const top = Math.max(...raw, 0) || 1;
  return raw.map((score, i) => {
    const wordCount = words(units[i].text).length;
    const opensParagraph = i === 0 || units[i - 1].paragraph !== units[i].paragraph;
    return (0.6 * score) / top + (i === 0 ? 0.4 : opensParagraph && !units[i].listItem ? 0.25 : 0) + (wordCount < 5 ? -0.2 : wordCount <= 30 ? 0.1 : 0);
  });
}

/** Cut at a word boundary so that text plus "…" fits in `max` characters. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1).replace(/\s+\S*$/u, "").replace(/[\s,;:.\-–]+$/u, "");
  return `${head || text.slice(0, max - 1)}…`;
}

/** Indices of the strongest sentences, best first (earlier ones win ties). */
const byRank = (ranks: number[]) => ranks.map((_, i) => i).sort((a, b) => ranks[b] - ranks[a] || a - b);

/** The strongest sentences in their original order, at most 300 characters; never a cut sentence, unless the strongest alone is too long. */
export function summaryOf(sentences: string[], ranks: number[]): { summary: string; used: Set<number> } {
  const order = byRank(ranks);
  if (!order.length) return { summary: "", used: new Set() };
  // A short note keeps sentences for its key points.
  const most = sentences.length <= 6 ? 2 : SUMMARY_SENTENCES;
  const strongest = order.find((i) => words(sentences[i]).length >= 3) ?? order[0];
  if (sentences[strongest].length > SUMMARY_MAX) return { summary: cutAtWord(sentences[strongest], SUMMARY_MAX), used: new Set([strongest]) };
  const used = new Set([strongest]);
  let length = sentences[strongest].length;
  for (const i of order) {
    if (used.size >= most) break;
    if (used.has(i) || words(sentences[i]).length < 3) continue;
    if (length + 1 + sentences[i].length > SUMMARY_MAX) continue;
    used.add(i);
    length += 1 + sentences[i].length;
  }
  return { summary: [...used].sort((a, b) => a - b).map((i) => sentences[i]).join(" "), used };
}

/** 2–5 central sentences besides the summary's (a short note's summary sentences when there are no others), in order. */
export function keyPointsOf(sentences: string[], ranks: number[], exclude: Set<number>, summaryUsed: Set<number>): string[] {
  const want = Math.min(KEY_POINTS_MAX, Math.max(2, Math.round(sentences.length / 4)));
  const order = byRank(ranks);
  const picked = order.filter((i) => !summaryUsed.has(i) && !exclude.has(i) && words(sentences[i]).length >= 4).slice(0, want);
  // Too few: commitments next, the summary's own sentences last.
  for (const i of [...order.filter((i) => !summaryUsed.has(i)), ...order]) {
    if (picked.length >= 2) break;
    if (!picked.includes(i) && words(sentences[i]).length >= 3) picked.push(i);
  }
  return picked.sort((a, b) => a - b).map((i) => cutAtWord(sentences[i].replace(/[,;:]$/u, ""), KEY_POINT_MAX));
}

/** Title, summary, key points and action items of a note, by rules. */
export function writeOfflineInsights({ text, language, recordedAt }: InsightsInput): InsightsDraft {
  const said = unitsOf(text, language);
  // A sentence said twice is summarized once (it would rank twice, and fill two of the places).
  const units = withoutRepeats(sentencesOf(said));
  const sentences = units.map((u) => u.text);
  const ranks = units.length > TEXTRANK_MAX_SENTENCES ? rankByWords(units) : units.length ? rankUnits(units) : [];
  // Action items from the sentences as said: actionItemsOf cuts unpunctuated runs at each commitment.
  const actionItems = actionItemsOf(said.map((u) => u.text));
  const commitments = new Set(sentences.flatMap((s, i) => (commitsTo(s) ? [i] : [])));
  const { summary, used } = summaryOf(sentences, ranks);
  return {
    title: noteTitle(sentences, ranks, language, recordedAt),
    summary,
    key_points: keyPointsOf(sentences, ranks, commitments, used),
    action_items: actionItems,
  };
}

export const offlineInsightsWriter: InsightsWriter = {
  name: "offline",
  write: async (input) => writeOfflineInsights(input),
};
