import { db } from "@/lib/db/client.ts";
import { storedInsights } from "@/lib/insights/store-insights.ts";
import { termMatcher } from "@/lib/notes/search-notes.ts";
import { configurationOf, fold, stemQuery, type ParsedQuery, type StemmedQuery } from "@/lib/notes/store/search-query.ts";
import { resolveTagFilter } from "@/lib/tags/tag-filter.ts";
import { answerCandidates } from "@/lib/notes/store/note-matches.ts";
import { passagesOfText, type Passage } from "@/lib/ask/passages.ts";
import { bound, type AskInput } from "@/lib/ask/schemas.ts";

// Retrieval for an answer: the search index finds the candidate notes (the question's words
// stemmed in each of the person's languages, as search does, but ANY of them rather than all: a
// question's words are not all in the note that answers it), then each candidate is cut into timed
// passages (lib/ask/passages.ts) and the passages are ranked by the question's words they hold,
// rarer words weighing more (idf over the candidates' passages). The best few, at most a few a
// note, are what an answer may cite.

/** Candidate notes read and cut into passages; ranked by the index first. */
const CANDIDATE_NOTES = 20;
/** The search index ranks the newest this many matches (as search does: a word in every note costs what one in 200 does). */
const RANKED_MATCHES = 200;
/** Passages an answer rests on (what the writer is given), and at most this many from one note. */
export const MAX_PASSAGES = 8;
const PER_NOTE = 3;

// Words of a question that ask rather than say what about: never searched for. The snowball
// stemmers' stop words (what, did, I, about, was, habe, ich, über…) are dropped by the database.
const ASKING = new Set(
  (
    "say said says saying tell told talk talked talking mention mentioned think thought note notes recorded record anything something know remember " +
    "sagen gesagt sage sagte erzählt erwähnt notiz notizen gedacht aufgenommen etwas " +
    "dit dire parlé mentionné note notes " +
    "dicho dije dijo hablé nota notas " +
    "detto parlato nota note"
  ).split(" "),
);

export type Candidate = { id: string; title: string; language: string; recordedAt: Date; rank: number; passages: Passage[] };
export type Ranked = { note: Candidate; passage: Passage; score: number };
export type Retrieval = { topic: string; terms: string[]; ranked: Ranked[] };

const WORD = /[\p{L}\p{N}]+/gu;

/** The question's words worth searching for, each once, as typed (folded to lower case). */
export function questionWords(question: string): string[] {
  return [...new Set([...question.normalize("NFKC").matchAll(WORD)].map(([w]) => fold(w)))].filter((w) => !ASKING.has(w) && w !== "or");
}

const anyOf = (words: string[]): ParsedQuery => words.map((word) => [{ words: [word], negated: false, prefix: false }]);

/** The passages of `userId`'s notes that best answer `input.question`, best first (empty: nothing matched). */
export async function retrieve(userId: string, input: AskInput): Promise<Retrieval> {
  const prisma = await db();
  let words = questionWords(input.question);
  const topic = words.join(" ") || input.question.trim();
  let stemmed = words.length ? await stemQuery(prisma, userId, anyOf(words)) : null;
  if (!stemmed) return { topic, terms: words, ranked: [] };
  // A stop word in any of the person's languages asks rather than names ("what", "die"): left out,
  // unless nothing else is left.
  const named = words.filter((w) => stemmed!.languages.every((code) => configurationOf(code) === "simple" || stemmed!.stems(w, false, configurationOf(code)).length));
  if (named.length && named.length < words.length) {
    words = named;
    stemmed = await stemQuery(prisma, userId, anyOf(words));
    if (!stemmed) return { topic, terms: words, ranked: [] };
  }
  const topicWords = words.join(" ");
  const notes = await candidates(userId, input, stemmed);
  return { topic: topicWords, terms: words, ranked: rank(notes, words, stemmed) };
}

async function candidates(userId: string, input: AskInput, stemmed: StemmedQuery): Promise<Candidate[]> {
  const filter = input.tag ? await resolveTagFilter({ userId, tags: [input.tag], excluded: [] }) : null;
  if (filter?.none) return [];
  // The two index searches of lib/notes/search-notes.ts (a note's own words; its clean-up's, unless
  // edited), each the newest matches, then ranked by the better of the two; each read as it shows.
  const notes = await answerCandidates({
    userId,
    stemmed,
    filter: { tags: filter?.tags, since: input.since ? bound(input.since, "start") : undefined, until: input.until ? bound(input.until, "end") : undefined },
    perSide: RANKED_MATCHES,
    limit: CANDIDATE_NOTES,
  });
  return notes.map((note) => {
    const title = note.title ?? storedInsights(note.insights)?.title ?? firstWords(note.shown);
    return { id: note.id, title, recordedAt: note.recordedAt, rank: note.rank, language: note.language, passages: passagesOfText(note.shown, note.segments) };
  });
}

const firstWords = (text: string) => {
  const words = text.trim().split(/\s+/u);
  return words.slice(0, 8).join(" ") + (words.length > 8 ? " …" : "");
};

/** Each passage scored by the question's words in it (idf-weighted), the note's index rank breaking ties. */
function rank(notes: Candidate[], words: string[], stemmed: StemmedQuery): Ranked[] {
  const scored = notes.flatMap((note, noteIndex) => {
    const cfg = configurationOf(note.language);
    const matchers = words.map((word) => termMatcher([{ word, prefix: false, stems: stemmed.stems(word, false, cfg) }]));
    return note.passages.map((passage) => {
      const tokens = [...passage.text.matchAll(WORD)].map(([w]) => w);
      const holds = matchers.map((matches) => tokens.some(matches));
      return { note, passage, holds, noteIndex };
    });
  });
  const total = scored.length;
  const df = words.map((_, i) => scored.filter((s) => s.holds[i]).length);
  const idf = df.map((d) => Math.log(1 + total / (1 + d)));
  const ranked = scored
    .map((s) => ({ ...s, score: s.holds.reduce((sum, held, i) => sum + (held ? idf[i] : 0), 0) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.noteIndex - b.noteIndex || a.passage.order - b.passage.order);
  const perNote = new Map<string, number>();
  const kept: Ranked[] = [];
  for (const s of ranked) {
    const n = perNote.get(s.note.id) ?? 0;
    if (n >= PER_NOTE) continue;
    perNote.set(s.note.id, n + 1);
    kept.push({ note: s.note, passage: s.passage, score: s.score });
    if (kept.length === MAX_PASSAGES) break;
  }
  return kept;
}
