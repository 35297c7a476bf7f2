import { passagesOfText, type Passage } from "@/lib/ask/passages.ts";
import { termMatcher } from "@/lib/notes/store/term-matcher.ts";
import { computeTask } from "@/lib/compute/task.ts";

// The computing half of Ask's retrieval (lib/ask/retrieve.ts reads; this cuts and ranks): each
// candidate note cut into timed passages, each passage scored by the question's words it holds,
// rarer words weighing more (idf over the candidates' passages), the best few kept, at most a few a
// note. Pure, on plain data (the segments as the stored JSON text), so it runs in the compute pool
// (lib/compute): cutting and aligning twenty long notes took seconds of the request thread.

/** Passages an answer rests on (what the writer is given), and at most this many from one note. */
export const MAX_PASSAGES = 8;
const PER_NOTE = 3;

const WORD = /[\p{L}\p{N}]+/gu;

export type RankInput = {
  /** The candidates, best-ranked by the index first: the text each shows, its recognized segments as stored (JSON text), its search configuration. */
  notes: { shown: string; segments: string | null; configuration: string }[];
  /** The question's words. */
  words: string[];
  /** Per configuration, each word's stems (in `words`' order). */
  stems: Record<string, string[][]>;
};
export type RankedPassage = { noteIndex: number; passage: Passage; score: number };

const parsed = (segments: string | null): unknown => {
  if (!segments) return [];
  try {
    return JSON.parse(segments);
  } catch {
    return [];
  }
};

/** The best passages for the question, best first: index rank, then order spoken, breaking ties. */
export function rankPassages({ notes, words, stems }: RankInput): RankedPassage[] {
  const scored = notes.flatMap((note, noteIndex) => {
    const matchers = words.map((word, i) => termMatcher([{ word, prefix: false, stems: stems[note.configuration]?.[i] ?? [] }]));
    return passagesOfText(note.shown, parsed(note.segments)).map((passage) => {
      const tokens = [...passage.text.matchAll(WORD)].map(([w]) => w);
      return { noteIndex, passage, holds: matchers.map((matches) => tokens.some(matches)) };
    });
  });
  const total = scored.length;
  const df = words.map((_, i) => scored.filter((s) => s.holds[i]).length);
  const idf = df.map((d) => Math.log(1 + total / (1 + d)));
  const ranked = scored
    .map((s) => ({ ...s, score: s.holds.reduce((sum, held, i) => sum + (held ? idf[i] : 0), 0) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.noteIndex - b.noteIndex || a.passage.order - b.passage.order);
  const perNote = new Map<number, number>();
  const kept: RankedPassage[] = [];
  for (const s of ranked) {
    const n = perNote.get(s.noteIndex) ?? 0;
    if (n >= PER_NOTE) continue;
    perNote.set(s.noteIndex, n + 1);
    kept.push({ noteIndex: s.noteIndex, passage: s.passage, score: s.score });
    if (kept.length === MAX_PASSAGES) break;
  }
  return kept;
}

export const rankPassagesTask = computeTask("rankPassages", rankPassages);
