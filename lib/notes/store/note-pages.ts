import { Prisma } from "@/lib/db/generated/client.ts";
import { client, type NoteRow } from "@/lib/notes/store/owned-note.ts";
import { matchConditions, type StemmedQuery } from "@/lib/notes/store/search-query.ts";

// The reads behind a page of the list and of search (lib/notes/list-notes.ts and search-notes.ts):
// the page's keys (the list's order, or search's hits), the bytes each note would carry, and then
// the notes themselves, whole, with their clean-ups.

/** The person's notes among `ids` with their clean-ups, read whole, in no order: a page puts them in its keys' order. */
export async function notesWithCleanUp({ userId, ids }: { userId: string; ids: string[] }): Promise<NoteRow[]> {
  if (!ids.length) return [];
  const prisma = await client();
  return prisma.note.findMany({ where: { userId, id: { in: ids } }, include: { optimization: true } });
}

/** The keys of the person's notes in the list's order, pinned first, each newest first: `take` of them matching `where`. */
export async function listKeys({ userId, where, take }: { userId: string; where: Prisma.NoteWhereInput; take?: number }) {
  const prisma = await client();
  return prisma.note.findMany({ where: { userId, ...where }, orderBy: [{ pinned: "desc" }, { id: "desc" }], take, select: { id: true, pinned: true } });
}

/** The bytes of text each of these notes carries in a list (the text, the recognized text and the clean-up), read without reading the texts. */
export async function listedBytes(ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const prisma = await client();
  const rows = await prisma.$queryRaw<{ id: string; bytes: number }[]>`
    SELECT t.id, (octet_length(t.text) + octet_length(t.raw_text) + coalesce(octet_length(o.optimized_text), 0))::float8 AS bytes
    FROM transcriptions t LEFT JOIN optimization_workflows o ON o.id = t.optimization_id
    WHERE t.id = ANY(${ids}::text[])`;
  return new Map(rows.map((row) => [row.id, Number(row.bytes)]));
}

// Ranking reads each matching note's words (and its clean-up's): the newest this many matches are
// ranked, older ones follow them newest first. A word in nearly every note thus costs what a word
// in 100 notes costs, and the best of the recent notes come first. bench:search, 10,000 notes
// with clean-ups: p95 104 ms ranking the newest 400, 52 ms ranking 100.
export const RANKED_MATCHES = 100;

export type SearchHit = { id: string; rank: number };
/** The tags a found note carries, each of `tags` and none of `excluded` (lib/tags/tag-filter.ts resolves them). */
type Tagged = { tags: string[]; excluded: string[] };

/**
 * The notes matching `stemmed` (and carrying `tags`), best first: `limit + 1` of them from `offset`
 * (one more tells whether there is a next page). A note matches by its title and text (the person's
 * edit, if any) or, unless edited, by its clean-up's text, and is ranked by the better of the two.
 */
export async function searchHits({
  userId,
  stemmed,
  tags,
  offset,
  limit,
}: {
  userId: string;
  stemmed: StemmedQuery;
  tags: Tagged | null;
  offset: number;
  limit: number;
}): Promise<SearchHit[]> {
  const prisma = await client();
  // `tag:` terms: the note carries every wanted tag (GIN, tags @>) and none of the excluded ones.
  const tagged = Prisma.sql`${tags?.tags.length ? Prisma.sql` AND t.tags @> ${tags.tags}::text[]` : Prisma.empty}${
    tags?.excluded.length ? Prisma.sql` AND NOT t.tags && ${tags.excluded}::text[]` : Prisma.empty
  }`;
  const { inNote, inCleanUp, noteMatches, cleanUpMatches } = matchConditions(stemmed, tagged);
  return prisma.$queryRaw<SearchHit[]>`
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
      SELECT id, false FROM found WHERE ${offset + limit + 1 > RANKED_MATCHES} AND id < (SELECT min(id) FROM ranked)
    ),
    matched AS (
      SELECT t.id,
        CASE WHEN c.ranked
          THEN greatest(ts_rank(t.search, ${inNote}), CASE WHEN t.edited_at IS NULL THEN coalesce(ts_rank(o.search, ${inCleanUp}), 0) ELSE 0 END)
          ELSE 0 END AS rank
      FROM candidates c JOIN transcriptions t ON t.id = c.id
      LEFT JOIN optimization_workflows o ON o.id = t.optimization_id
      ORDER BY rank DESC, t.id DESC
      LIMIT ${limit + 1} OFFSET ${offset}
    )
    SELECT m.id, m.rank::float8 AS rank
    FROM matched m
    ORDER BY m.rank DESC, m.id DESC`;
}

/** Fresh planner statistics for the notes and their clean-ups (the embedded database has no autovacuum). */
export async function analyzeNotes(): Promise<void> {
  const prisma = await client();
  await prisma.$executeRawUnsafe("ANALYZE transcriptions, optimization_workflows");
}
