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

// Marks around the matched words in ts_headline's answer: control characters a note cannot
// contain in a way that matters here (they are removed from the text first).
const START = "\u0002";
const STOP = "\u0003";
const HEADLINE = `StartSel=${START}, StopSel=${STOP}, MaxWords=30, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

type Hit = { id: string; rank: number; snippet: string };

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
    found AS (
      SELECT t.id FROM transcriptions t CROSS JOIN query WHERE t.user_id = ${userId} AND t.search @@ query.q
      UNION
      SELECT t.id FROM optimization_workflows o CROSS JOIN query
      JOIN transcriptions t ON t.optimization_id = o.id AND t.user_id = ${userId} AND t.edited_at IS NULL
      WHERE o.user_id = ${userId} AND o.search @@ query.q
    ),
    matched AS (
      SELECT t.id, t.text, o.optimized_text,
        (t.edited_at IS NULL AND o.status = 'completed' AND o.optimized_text IS NOT NULL) AS clean_shown,
        greatest(ts_rank(t.search, query.q), CASE WHEN t.edited_at IS NULL THEN coalesce(ts_rank(o.search, query.q), 0) ELSE 0 END) AS rank
      FROM found JOIN transcriptions t ON t.id = found.id
      LEFT JOIN optimization_workflows o ON o.id = t.optimization_id
      CROSS JOIN query
      ORDER BY rank DESC, t.id DESC
      LIMIT ${input.limit + 1} OFFSET ${offset}
    )
    SELECT m.id, m.rank::float8 AS rank,
      ts_headline('simple', translate(CASE WHEN m.clean_shown THEN m.optimized_text ELSE m.text END, ${START + STOP}, ''), query.q, ${HEADLINE}) AS snippet
    FROM matched m CROSS JOIN query
    ORDER BY m.rank DESC, m.id DESC`;
  const page = hits.slice(0, input.limit);
  const rows = await prisma.transcription.findMany({ where: { id: { in: page.map((h) => h.id) }, userId }, include: { optimization: true } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const transcriptions = page.flatMap((hit) => {
    const row = byId.get(hit.id);
    if (!row) return []; // deleted between the two reads
    return [{ ...toTranscriptionResult(row), segments: undefined, words: undefined, search: { rank: hit.rank, snippet: snippetParts(hit.snippet) } }];
  });
  return { transcriptions, next_cursor: hits.length > input.limit ? encodeCursor(`s${offset + input.limit}`) : null };
}

/** ts_headline's text with its marks, as pieces a client highlights without parsing any markup. */
export function snippetParts(headline: string): z.output<typeof SearchMatch>["snippet"] {
  const parts: { text: string; match: boolean }[] = [];
  for (const [i, piece] of headline.split(START).entries()) {
    const [matched, rest] = i === 0 ? [null, piece] : piece.split(STOP, 2);
    if (matched) parts.push({ text: matched, match: true });
    if (rest) parts.push({ text: rest, match: false });
  }
  return parts;
}

/**
 * The embedded database has no autovacuum, so nothing tells its planner how many notes there are
 * and it scans them all instead of using the search index (bench:search: 14 ms → 4.5 ms for a
 * word in no note after ANALYZE). The background work runs this hourly; PostgreSQL's autovacuum
 * does it there.
 */
export async function refreshSearchStatistics(): Promise<void> {
  if ((await databaseKind()) !== "embedded") return;
  const prisma = await db();
  await prisma.$executeRawUnsafe("ANALYZE transcriptions, optimization_workflows");
}
