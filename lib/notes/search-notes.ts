import { z } from "zod";
import { databaseKind, db } from "@/lib/db/client.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import type { TagFilter } from "@/lib/tags/tag-filter.ts";
import { fittingCount } from "@/lib/notes/page-bytes.ts";
import { analyzeNotes, listedBytes, notesWithCleanUp, searchHits } from "@/lib/notes/store/note-pages.ts";
import { presentNote } from "@/lib/notes/present-note.ts";
import { shownText } from "@/lib/notes/store/shown-text.ts";
import { configurationOf, parseQuery, searchedTerms, stemQuery } from "@/lib/notes/store/search-query.ts";
import { termMatcher, type SnippetTerm } from "@/lib/notes/store/term-matcher.ts";
import type { ListTranscriptionsQuery, SearchMatch, TranscriptionList } from "@/lib/notes/schemas.ts";

// Full-text search over a person's notes: PostgreSQL's tsvector (the stored `search` columns of
// transcriptions and of their clean-ups, GIN-indexed; migration 20261126130000_note_search) and
// websearch_to_tsquery, on the embedded database and on PostgreSQL alike (the SQL is the store's:
// store/note-pages.ts, searchHits). A note matches by its title and text (the person's edit, if
// any) or, unless edited, by its clean-up's text; it is ranked by the better of the two and its
// snippet is cut from the text the app shows.

// The snippet is cut here, not by ts_headline: on the embedded database ts_headline over a page
// of 300-word notes cost tens of milliseconds (it re-parses each whole text); this walks the text
// once for the words searched for and keeps about 30 words around the first one found.
const SNIPPET_WORDS = 30;
const WORDS_BEFORE = 8;

/** One page of the notes matching `q` (and carrying `tags`), best first; the cursor is the offset of the next page. */
export async function searchNotes({
  userId,
  input,
  tags = null,
}: {
  userId: string;
  input: z.output<typeof ListTranscriptionsQuery> & { q: string };
  tags?: TagFilter | null;
}): Promise<z.output<typeof TranscriptionList>> {
  const prisma = await db();
  const offset = input.cursor ? Number(decodeCursor(input.cursor, (key) => /^s\d{1,6}$/.test(key)).slice(1)) : 0;
  const parsed = parseQuery(input.q);
  const stemmed = await stemQuery(prisma, userId, parsed);
  if (!stemmed) return { transcriptions: [], next_cursor: null }; // no word in it (only punctuation), or no notes
  const hits = await searchHits({ userId, stemmed, tags, offset, limit: input.limit });
  const ids = hits.slice(0, input.limit).map((h) => h.id);
  const fit = fittingCount(ids, await listedBytes(ids));
  const page = hits.slice(0, fit);
  const terms = searchedTerms(parsed);
  const termsIn = (language: string) =>
    terms.map((t) => ({ ...t, stems: stemmed.stems(t.word, t.prefix, configurationOf(language)) }));
  const rows = await notesWithCleanUp({ userId, ids: page.map((h) => h.id) });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const transcriptions = page.flatMap((hit) => {
    const row = byId.get(hit.id);
    if (!row) return []; // deleted between the two reads
    return [{ ...presentNote(row), segments: undefined, words: undefined, search: { rank: hit.rank, snippet: snippet(shownText(row), termsIn(row.language)) } }];
  });
  return { transcriptions, next_cursor: hits.length > fit ? encodeCursor(`s${offset + fit}`) : null };
}

const WORD = /[\p{L}\p{N}]+/gu;
/** The searched words of a query (not the -excluded ones), exact or as a typed prefix, with no stems. */
export function searchedWords(q: string): SnippetTerm[] {
  return searchedTerms(parseQuery(q)).map((t) => ({ ...t, stems: [] }));
}

type Span = { start: number; end: number };

/**
 * About 30 words of `text` around the first of the searched words, as pieces a client highlights
 * without parsing markup (`match` on every searched word in it); the start when none is in it
 * (a note found by its title). The text is read up to the window and one word past it, not whole:
 * listing all of a 480 KB note's words cost 9 ms on the request thread for each note of a page
 * (issue 66, bench:fairness's search).
 */
export function snippet(text: string, terms: SnippetTerm[]): z.output<typeof SearchMatch>["snippet"] {
  const matches = termMatcher(terms);
  const words = new RegExp(WORD.source, WORD.flags);
  const head: Span[] = []; // the first SNIPPET_WORDS words (the window when no word matches)
  let recent: Span[] = []; // at least the last SNIPPET_WORDS words read, up to the match
  const after: Span[] = []; // up to SNIPPET_WORDS words after the match
  let count = 0; // words read up to the match (all of them, without one)
  let first = -1;
  let more = false; // words beyond those read
  for (let m = words.exec(text); m; m = words.exec(text)) {
    const word = { start: m.index, end: m.index + m[0].length };
    if (first >= 0) {
      if (after.length === SNIPPET_WORDS) {
        more = true;
        break;
      }
      after.push(word);
      continue;
    }
    if (head.length < SNIPPET_WORDS) head.push(word);
    recent.push(word);
    if (recent.length > 2 * SNIPPET_WORDS) recent = recent.slice(-SNIPPET_WORDS);
    if (matches(m[0])) first = count;
    count += 1;
  }
  if (!count) return [{ text: text.slice(0, 200), match: false }];
  let shown: Span[];
  let from: number;
  let total: number | null; // all the words, when read to the end
  if (first < 0) {
    [shown, from, total] = [head, 0, count];
  } else {
    total = more ? null : count + after.length;
    from = Math.max(0, total === null ? first - WORDS_BEFORE : Math.min(first - WORDS_BEFORE, total - SNIPPET_WORDS));
    const known = [...recent, ...after];
    const knownFrom = first - recent.length + 1;
    shown = known.slice(from - knownFrom, from - knownFrom + SNIPPET_WORDS);
  }
  const cut = total === null || from + SNIPPET_WORDS < total;
  return snippetPieces(text, shown.map((w) => ({ ...w, match: matches(text.slice(w.start, w.end)) })), { cutBefore: from > 0, cutAfter: cut });
}

/** The snippet's pieces: the words `shown` (each marked whether it matches) and what lies between, with "…" where text was cut. */
export function snippetPieces(text: string, shown: (Span & { match: boolean })[], { cutBefore, cutAfter }: { cutBefore: boolean; cutAfter: boolean }): z.output<typeof SearchMatch>["snippet"] {
  const parts: { text: string; match: boolean }[] = [];
  const push = (piece: string, match: boolean) => {
    if (!piece) return;
    const last = parts.at(-1);
    if (last && last.match === match && !match) last.text += piece;
    else parts.push({ text: piece, match });
  };
  if (cutBefore) push("… ", false);
  let at = shown[0].start;
  for (const w of shown) {
    push(text.slice(at, w.start), false);
    push(text.slice(w.start, w.end), w.match);
    at = w.end;
  }
  const last = shown.at(-1)!;
  push(cutAfter ? `${text.slice(last.end).match(/^[^\p{L}\p{N}\s]*/u)?.[0] ?? ""} …` : text.slice(last.end), false);
  return parts;
}

/**
 * The embedded database has no autovacuum: nothing tells its planner how many notes a person has,
 * so it reads all of them instead of using the search index (bench:search, a word in 129 of
 * 10,000 notes: 49 ms without statistics, a few ms with). The background work runs this every 10
 * minutes there; PostgreSQL's autovacuum does it on its own (`always` runs it anyway: benchmarks).
 */
export async function refreshSearchStatistics({ always = false } = {}): Promise<void> {
  if (!always && (await databaseKind()) !== "embedded") return;
  await analyzeNotes();
}
