import { db } from "@/lib/db/client.ts";
import { storedInsights } from "@/lib/insights/store-insights.ts";
import { configurationOf, fold, stemQuery, type ParsedQuery, type StemmedQuery } from "@/lib/notes/store/search-query.ts";
import { resolveTagFilter } from "@/lib/tags/tag-filter.ts";
import { answerCandidates, type AnswerCandidate } from "@/lib/notes/store/note-matches.ts";
import type { Passage } from "@/lib/ask/passages.ts";
import { compute } from "@/lib/compute/pool.ts";
import { rankPassagesTask } from "@/lib/ask/rank-passages.ts";
import { bound, type AskInput } from "@/lib/ask/schemas.ts";

// Retrieval for an answer: the search index finds the candidate notes (the question's words
// stemmed in each of the person's languages, as search does, but ANY of them rather than all: a
// question's words are not all in the note that answers it), then the compute pool cuts each into
// timed passages and ranks them by the question's words they hold (lib/ask/rank-passages.ts). The
// best few, at most a few a note, are what an answer may cite.

/** Candidate notes read and cut into passages; ranked by the index first. */
const CANDIDATE_NOTES = 20;
/**
 * Their text, all together, at most (the best note is read whatever its length): twenty notes of
 * 480 KB took 10 s of the compute pool an ask; 2 M characters, about 2 s. A person's notes are
 * rarely that long; when they are, the best-ranked are the ones cut.
 */
const CANDIDATE_CHARS = 2_000_000;
/** The search index ranks the newest this many matches (as search does: a word in every note costs what one in 200 does). */
const RANKED_MATCHES = 200;

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

export type Candidate = { id: string; title: string; language: string; recordedAt: Date; rank: number };
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
  return { topic: topicWords, terms: words, ranked: await rank(userId, notes, words, stemmed) };
}

async function candidates(userId: string, input: AskInput, stemmed: StemmedQuery) {
  const filter = input.tag ? await resolveTagFilter({ userId, tags: [input.tag], excluded: [] }) : null;
  if (filter?.none) return [];
  // The two index searches of lib/notes/search-notes.ts (a note's own words; its clean-up's, unless
  // edited), each the newest matches, then ranked by the better of the two; each read as it shows.
  return answerCandidates({
    userId,
    stemmed,
    filter: { tags: filter?.tags, since: input.since ? bound(input.since, "start") : undefined, until: input.until ? bound(input.until, "end") : undefined },
    perSide: RANKED_MATCHES,
    limit: CANDIDATE_NOTES,
    maxChars: CANDIDATE_CHARS,
  });
}

const firstWords = (text: string) => {
  const words = text.trim().split(/\s+/u);
  return words.slice(0, 8).join(" ") + (words.length > 8 ? " …" : "");
};

/** The candidates' passages ranked in the compute pool (lib/ask/rank-passages.ts): the request thread only waits. */
async function rank(userId: string, notes: AnswerCandidate[], words: string[], stemmed: StemmedQuery): Promise<Ranked[]> {
  if (!notes.length) return [];
  const configurations = [...new Set(notes.map((note) => configurationOf(note.language)))];
  const stems = Object.fromEntries(configurations.map((cfg) => [cfg, words.map((word) => stemmed.stems(word, false, cfg))]));
  const ranked = await compute(userId, rankPassagesTask, {
    notes: notes.map((note) => ({ shown: note.shown, segments: note.segments, configuration: configurationOf(note.language) })),
    words,
    stems,
  });
  const byIndex = new Map<number, Candidate>();
  const candidate = (i: number) => {
    const note = notes[i];
    if (!byIndex.has(i)) {
      const title = note.title ?? storedInsights(note.insights)?.title ?? firstWords(note.shown);
      byIndex.set(i, { id: note.id, title, recordedAt: note.recordedAt, rank: note.rank, language: note.language });
    }
    return byIndex.get(i)!;
  };
  return ranked.map((r) => ({ note: candidate(r.noteIndex), passage: r.passage, score: r.score }));
}
