import { z } from "zod";
import { databaseKind, db } from "@/lib/db/client.ts";
import { Prisma } from "@/lib/db/generated/client.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import type { TagFilter } from "@/lib/tags/tag-filter.ts";
import { fittingCount, listedBytes } from "@/lib/notes/page-bytes.ts";
import { presentNote } from "@/lib/notes/present-note.ts";
import { shownText } from "@/lib/notes/store/shown-text.ts";
import { configurationOf, fold, parseQuery, queryInLanguage, searchedTerms, stemQuery } from "@/lib/notes/store/search-query.ts";
import type { ListTranscriptionsQuery, SearchMatch, TranscriptionList } from "@/lib/notes/schemas.ts";

// Full-text search over a person's notes: PostgreSQL's tsvector (the stored `search` columns of
// transcriptions and of their clean-ups, GIN-indexed; migration 20261126130000_note_search) and
// websearch_to_tsquery, on the embedded database and on PostgreSQL alike. A note matches by its
// title and text (the person's edit, if any) or, unless edited, by its clean-up's text; it is
// ranked by the better of the two and its snippet is cut from the text the app shows.

// The snippet is cut here, not by ts_headline: on the embedded database ts_headline over a page
// of 300-word notes cost tens of milliseconds (it re-parses each whole text); this walks the text
// once for the words searched for and keeps about 30 words around the first one found.
const SNIPPET_WORDS = 30;
// Ranking reads each matching note's words (and its clean-up's): the newest this many matches are
// ranked, older ones follow them newest first. A word in nearly every note thus costs what a word
// in 100 notes costs, and the best of the recent notes come first. bench:search, 10,000 notes
// with clean-ups: p95 104 ms ranking the newest 400, 52 ms ranking 100.
export const RANKED_MATCHES = 100;
const WORDS_BEFORE = 8;

type Hit = { id: string; rank: number };

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
  // The index is searched with the reading of each of the person's languages ORed (one GIN scan);
  // a note is kept only if the reading in its own language matches (precise), ranked by that
  // reading too. Notes all read alike (one language, the usual case): that one reading, no recheck.
  const any = Prisma.sql`${stemmed.any}::tsquery`;
  const inNote = stemmed.single ? any : queryInLanguage(stemmed, Prisma.sql`t.language`);
  const inCleanUp = stemmed.single ? any : queryInLanguage(stemmed, Prisma.sql`o.language`);
  // `tag:` terms: the note carries every wanted tag (GIN, tags @>) and none of the excluded ones.
  const tagged = Prisma.sql`${tags?.tags.length ? Prisma.sql` AND t.tags @> ${tags.tags}::text[]` : Prisma.empty}${
    tags?.excluded.length ? Prisma.sql` AND NOT t.tags && ${tags.excluded}::text[]` : Prisma.empty
  }`;
  const noteMatches = stemmed.single ? Prisma.sql`t.search @@ ${any}${tagged}` : Prisma.sql`t.search @@ ${any} AND t.search @@ ${inNote}${tagged}`;
  const cleanUpMatches = stemmed.single ? Prisma.sql`o.search @@ ${any}${tagged}` : Prisma.sql`o.search @@ ${any} AND o.search @@ ${inCleanUp}${tagged}`;
  const hits = await prisma.$queryRaw<Hit[]>`
    -- Two index searches (the notes' own words, the clean-ups' words), not one scan with an OR.
    -- The query is a constant in each: compared with a value from another table (a CTE), the
    -- planner cannot use the GIN index and reads every note's vector (bench:search: 49 ms for a word in no note).
    WITH found AS (
      SELECT t.id FROM transcriptions t
      WHERE t.user_id = ${userId} AND ${noteMatches}
      UNION
      SELECT t.id FROM optimization_workflows o
      JOIN transcriptions t ON t.optimization_id = o.id AND t.user_id = ${userId} AND t.edited_at IS NULL
      WHERE o.user_id = ${userId} AND ${cleanUpMatches}
    ),
    -- The newest matches are ranked; older ones, needed only for pages past them, follow unranked.
    -- (Each side newest first on its own: for a word in most notes the planner then reads the
    -- newest notes backwards until it has enough, instead of every match; 62 → 10 ms.)
    ranked AS (
      SELECT id FROM (
        (SELECT t.id FROM transcriptions t
          WHERE t.user_id = ${userId} AND ${noteMatches}
          ORDER BY t.id DESC LIMIT ${RANKED_MATCHES})
        UNION
        (SELECT t.id FROM optimization_workflows o
          JOIN transcriptions t ON t.optimization_id = o.id AND t.user_id = ${userId} AND t.edited_at IS NULL
          WHERE o.user_id = ${userId} AND ${cleanUpMatches}
          ORDER BY t.id DESC LIMIT ${RANKED_MATCHES})
      ) newest ORDER BY id DESC LIMIT ${RANKED_MATCHES}
    ),
    candidates AS (
      SELECT id, true AS ranked FROM ranked
      UNION ALL
      SELECT id, false FROM found WHERE ${offset + input.limit + 1 > RANKED_MATCHES} AND id < (SELECT min(id) FROM ranked)
    ),
    matched AS (
      SELECT t.id,
        CASE WHEN c.ranked
          THEN greatest(ts_rank(t.search, ${inNote}), CASE WHEN t.edited_at IS NULL THEN coalesce(ts_rank(o.search, ${inCleanUp}), 0) ELSE 0 END)
          ELSE 0 END AS rank
      FROM candidates c JOIN transcriptions t ON t.id = c.id
      LEFT JOIN optimization_workflows o ON o.id = t.optimization_id
      ORDER BY rank DESC, t.id DESC
      LIMIT ${input.limit + 1} OFFSET ${offset}
    )
    SELECT m.id, m.rank::float8 AS rank
    FROM matched m
    ORDER BY m.rank DESC, m.id DESC`;
  const ids = hits.slice(0, input.limit).map((h) => h.id);
  const fit = fittingCount(ids, await listedBytes(prisma, ids));
  const page = hits.slice(0, fit);
  const terms = searchedTerms(parsed);
  const termsIn = (language: string) =>
    terms.map((t) => ({ ...t, stems: stemmed.stems(t.word, t.prefix, configurationOf(language)) }));
  const rows = await prisma.transcription.findMany({ where: { id: { in: page.map((h) => h.id) }, userId }, include: { optimization: true } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const transcriptions = page.flatMap((hit) => {
    const row = byId.get(hit.id);
    if (!row) return []; // deleted between the two reads
    return [{ ...presentNote(row), segments: undefined, words: undefined, search: { rank: hit.rank, snippet: snippet(shownText(row), termsIn(row.language)) } }];
  });
  return { transcriptions, next_cursor: hits.length > fit ? encodeCursor(`s${offset + fit}`) : null };
}

const WORD = /[\p{L}\p{N}]+/gu;
const PLAIN = /^[a-z0-9]+$/i; // most words: folding and removing accents change nothing but case
// Without accents, ß as ss: how the snowball stemmers spell a stem ("Häuser" → haus).
const bare = (word: string) => (PLAIN.test(word) ? word.toLowerCase() : fold(word).normalize("NFD").replace(/\p{M}/gu, "").replaceAll("ß", "ss"));

/** A searched word as the snippet recognizes it: the word, a prefix being typed, or its stems. */
export type SnippetTerm = { word: string; prefix: boolean; stems: string[] };

/** Does a word of a note's text match one of the searched words? Built once for a snippet's terms. */
export function termMatcher(terms: SnippetTerm[]): (textWord: string) => boolean {
  const prepared = terms.map((t) => ({ ...t, stems: t.stems.map(bare) }));
  const stemmed = prepared.some((t) => t.stems.length);
  return (textWord) => {
    const ascii = PLAIN.test(textWord);
    const word = ascii ? textWord.toLowerCase() : fold(textWord);
    if (prepared.some((t) => word === t.word || (t.prefix && word.startsWith(t.word)))) return true;
    if (!stemmed) return false;
    // The database's stemmer is not asked for every word of the text (that is what made ts_headline
    // slow): a word starting with the stem counts, or with all of it but a last letter the stemmer
    // rewrote (country → countri) when the word is not much longer.
    const plain = ascii ? word : bare(textWord);
    return prepared.some((t) =>
      t.stems.some((s) => (s.length < 3 ? plain === s : plain.startsWith(s) || (s.length >= 4 && plain.startsWith(s.slice(0, -1)) && plain.length <= s.length + 2))),
    );
  };
}

/** The searched words of a query (not the -excluded ones), exact or as a typed prefix, with no stems. */
export function searchedWords(q: string): SnippetTerm[] {
  return searchedTerms(parseQuery(q)).map((t) => ({ ...t, stems: [] }));
}

/**
 * About 30 words of `text` around the first of the searched words, as pieces a client highlights
 * without parsing markup (`match` on every searched word in it); the start when none is in it
 * (a note found by its title).
 */
export function snippet(text: string, terms: SnippetTerm[]): z.output<typeof SearchMatch>["snippet"] {
  const matches = termMatcher(terms);
  const all = [...text.matchAll(WORD)];
  if (!all.length) return [{ text: text.slice(0, 200), match: false }];
  // Words are tested up to the first match and then only in the window shown.
  const first = Math.max(0, all.findIndex(([word]) => matches(word)));
  const from = Math.max(0, Math.min(first - WORDS_BEFORE, all.length - SNIPPET_WORDS));
  const shown = all.slice(from, from + SNIPPET_WORDS).map((m) => ({ start: m.index, end: m.index + m[0].length, match: matches(m[0]) }));
  const parts: { text: string; match: boolean }[] = [];
  const push = (piece: string, match: boolean) => {
    if (!piece) return;
    const last = parts.at(-1);
    if (last && last.match === match && !match) last.text += piece;
    else parts.push({ text: piece, match });
  };
  if (from > 0) push("… ", false);
  let at = shown[0].start;
  for (const w of shown) {
    push(text.slice(at, w.start), false);
    push(text.slice(w.start, w.end), w.match);
    at = w.end;
  }
  const last = shown.at(-1)!;
  push(from + SNIPPET_WORDS < all.length ? `${text.slice(last.end).match(/^[^\p{L}\p{N}\s]*/u)?.[0] ?? ""} …` : text.slice(last.end), false);
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
  const prisma = await db();
  await prisma.$executeRawUnsafe("ANALYZE transcriptions, optimization_workflows");
}
