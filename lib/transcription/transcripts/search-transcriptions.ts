import { z } from "zod";
import { databaseKind, db } from "@/lib/db/client.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import { toTranscriptionResult } from "@/lib/transcription/transcripts/present-transcription.ts";
import type { ListTranscriptionsQuery, SearchMatch, TranscriptionList } from "@/lib/transcription/schemas.ts";

// Full-text search over a person's notes: PostgreSQL's tsvector (the stored `search` columns of
// transcriptions and of their clean-ups, GIN-indexed; migration 20261126130000_note_search) and
// websearch_to_tsquery, on the embedded database and on PostgreSQL alike. A note matches by its
// title and text (the person's edit, if any) or, unless edited, by its clean-up's text; it is
// ranked by the better of the two and its snippet is cut from the text the app shows.

// The snippet is cut here, not by ts_headline: on the embedded database ts_headline over a page
// of 300-word notes cost tens of milliseconds (it re-parses each whole text); this walks the text
// once for the words searched for and keeps about 30 words around the first one found.
const SNIPPET_WORDS = 30;
// Ranking reads each matching note's words: the newest this many matches are ranked, older ones
// follow them newest first. A word in nearly every note thus costs what a word in 400 notes
// costs (bench:search), and the best of the recent notes come first.
export const RANKED_MATCHES = 400;
const WORDS_BEFORE = 8;

type Hit = { id: string; rank: number; shown: string };

/** One page of the notes matching `q`, best first; the cursor is the offset of the next page. */
export async function searchTranscriptions({
  userId,
  input,
}: {
  userId: string;
  input: z.output<typeof ListTranscriptionsQuery> & { q: string };
}): Promise<z.output<typeof TranscriptionList>> {
  const prisma = await db();
  const offset = input.cursor ? Number(decodeCursor(input.cursor, (key) => /^s\d{1,6}$/.test(key)).slice(1)) : 0;
  const hits = await prisma.$queryRaw<Hit[]>`
    WITH query AS (SELECT websearch_to_tsquery('simple', ${input.q}) AS q),
    -- Two index searches (the notes' own words, the clean-ups' words), not one scan with an OR.
    -- The query is written out in each: compared with a value from another table (the CTE), the
    -- planner cannot use the GIN index and reads every note's vector (bench:search: 49 ms for a word in no note).
    found AS (
      SELECT t.id FROM transcriptions t
      WHERE t.user_id = ${userId} AND t.search @@ websearch_to_tsquery('simple', ${input.q})
      UNION
      SELECT t.id FROM optimization_workflows o
      JOIN transcriptions t ON t.optimization_id = o.id AND t.user_id = ${userId} AND t.edited_at IS NULL
      WHERE o.user_id = ${userId} AND o.search @@ websearch_to_tsquery('simple', ${input.q})
    ),
    -- The newest matches are ranked; older ones, needed only for pages past them, follow unranked.
    -- (Each side newest first on its own: for a word in most notes the planner then reads the
    -- newest notes backwards until it has enough, instead of every match; 62 → 10 ms.)
    ranked AS (
      SELECT id FROM (
        (SELECT t.id FROM transcriptions t
          WHERE t.user_id = ${userId} AND t.search @@ websearch_to_tsquery('simple', ${input.q})
          ORDER BY t.id DESC LIMIT ${RANKED_MATCHES})
        UNION
        (SELECT t.id FROM optimization_workflows o
          JOIN transcriptions t ON t.optimization_id = o.id AND t.user_id = ${userId} AND t.edited_at IS NULL
          WHERE o.user_id = ${userId} AND o.search @@ websearch_to_tsquery('simple', ${input.q})
          ORDER BY t.id DESC LIMIT ${RANKED_MATCHES})
      ) newest ORDER BY id DESC LIMIT ${RANKED_MATCHES}
    ),
    candidates AS (
      SELECT id, true AS ranked FROM ranked
      UNION ALL
      SELECT id, false FROM found WHERE ${offset + input.limit + 1 > RANKED_MATCHES} AND id < (SELECT min(id) FROM ranked)
    ),
    matched AS (
      SELECT t.id, t.text, o.optimized_text,
        (t.edited_at IS NULL AND o.status = 'completed' AND o.optimized_text IS NOT NULL) AS clean_shown,
        CASE WHEN c.ranked
          THEN greatest(ts_rank(t.search, query.q), CASE WHEN t.edited_at IS NULL THEN coalesce(ts_rank(o.search, query.q), 0) ELSE 0 END)
          ELSE 0 END AS rank
      FROM candidates c JOIN transcriptions t ON t.id = c.id
      LEFT JOIN optimization_workflows o ON o.id = t.optimization_id
      CROSS JOIN query
      ORDER BY rank DESC, t.id DESC
      LIMIT ${input.limit + 1} OFFSET ${offset}
    )
    SELECT m.id, m.rank::float8 AS rank, CASE WHEN m.clean_shown THEN m.optimized_text ELSE m.text END AS shown
    FROM matched m
    ORDER BY m.rank DESC, m.id DESC`;
  const page = hits.slice(0, input.limit);
  const terms = searchedWords(input.q);
  const rows = await prisma.transcription.findMany({ where: { id: { in: page.map((h) => h.id) }, userId }, include: { optimization: true } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const transcriptions = page.flatMap((hit) => {
    const row = byId.get(hit.id);
    if (!row) return []; // deleted between the two reads
    return [{ ...toTranscriptionResult(row), segments: undefined, words: undefined, search: { rank: hit.rank, snippet: snippet(hit.shown, terms) } }];
  });
  return { transcriptions, next_cursor: hits.length > input.limit ? encodeCursor(`s${offset + input.limit}`) : null };
}

const WORD = /[\p{L}\p{N}]+/gu;
const fold = (word: string) => word.normalize("NFKC").toLocaleLowerCase();

/** The words a query looks for (in web search syntax: not the -excluded ones, not "or"). */
export function searchedWords(q: string): Set<string> {
  const wanted = new Set<string>();
  for (const [, minus, phrase, word] of q.matchAll(/(-?)(?:"([^"]*)"?|(\S+))/g)) {
    if (minus) continue;
    const text = phrase ?? word;
    if (!phrase && /^or$/i.test(text)) continue;
    for (const [w] of text.matchAll(WORD)) wanted.add(fold(w));
  }
  return wanted;
}

/**
 * About 30 words of `text` around the first of the searched words, as pieces a client highlights
 * without parsing markup (`match` on every searched word in it); the start when none is in it
 * (a note found by its title).
 */
export function snippet(text: string, terms: Set<string>): z.output<typeof SearchMatch>["snippet"] {
  const words = [...text.matchAll(WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length, match: terms.has(fold(m[0])) }));
  if (!words.length) return [{ text: text.slice(0, 200), match: false }];
  const first = Math.max(0, words.findIndex((w) => w.match));
  const from = Math.max(0, Math.min(first - WORDS_BEFORE, words.length - SNIPPET_WORDS));
  const shown = words.slice(from, from + SNIPPET_WORDS);
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
  push(from + SNIPPET_WORDS < words.length ? `${text.slice(last.end).match(/^[^\p{L}\p{N}\s]*/u)?.[0] ?? ""} …` : text.slice(last.end), false);
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
