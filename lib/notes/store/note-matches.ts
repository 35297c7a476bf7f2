import { db } from "@/lib/db/client.ts";
import { Prisma } from "@/lib/db/generated/client.ts";
import { matchConditions, type StemmedQuery } from "@/lib/notes/store/search-query.ts";
import { SHOWN_TEXT_SQL } from "@/lib/notes/store/shown-text-sql.ts";

// The notes' search index read for others than search itself: the candidates of an answer (Ask)
// and a dictionary entry's reach. Search (lib/notes/search-notes.ts) pages its own.

/** The person's notes that may answer: recorded within `since`–`until`, carrying `tags`. */
export type AnswerFilter = { tags?: string[]; since?: Date; until?: Date };

/** A candidate note as Ask reads it: the text it shows (SHOWN_TEXT_SQL), and its recognized segments for the times. */
export type AnswerCandidate = {
  id: string;
  rank: number;
  title: string | null;
  shown: string;
  /** As stored (JSON text): parsed where it is used, in the compute pool, not on the request thread. */
  segments: string | null;
  insights: unknown;
  language: string;
  recordedAt: Date;
};

/**
 * The notes matching any of the words (`stemmed`), by their own words or, unless edited, their
 * clean-up's (search's two index searches, each the newest `perSide` matches), ranked by the better
 * of the two; the best `limit`.
 */
export async function answerCandidates({
  userId,
  stemmed,
  filter,
  perSide,
  limit,
  maxChars,
}: {
  userId: string;
  stemmed: StemmedQuery;
  filter: AnswerFilter;
  perSide: number;
  limit: number;
  /** Characters of text read at most, all candidates together (the best one is read whatever its length). */
  maxChars: number;
}): Promise<AnswerCandidate[]> {
  const prisma = await db();
  const when = Prisma.sql`coalesce(t.recorded_at, t.created_at)`;
  const within = Prisma.sql`${filter.tags?.length ? Prisma.sql` AND t.tags @> ${filter.tags}::text[]` : Prisma.empty}${
    filter.since ? Prisma.sql` AND ${when} >= ${filter.since}` : Prisma.empty
  }${filter.until ? Prisma.sql` AND ${when} < ${filter.until}` : Prisma.empty}`;
  const { inNote, inCleanUp, noteMatches, cleanUpMatches } = matchConditions(stemmed);
  const ranked = await prisma.$queryRaw<{ id: string; chars: number; rank: number }[]>`
    WITH found AS (
      (SELECT t.id FROM transcriptions t WHERE t.user_id = ${userId} AND ${noteMatches}${within} ORDER BY t.id DESC LIMIT ${perSide})
      UNION
      (SELECT t.id FROM optimization_workflows o
        JOIN transcriptions t ON t.optimization_id = o.id AND t.user_id = ${userId} AND t.edited_at IS NULL
        WHERE o.user_id = ${userId} AND ${cleanUpMatches}${within} ORDER BY t.id DESC LIMIT ${perSide})
    )
    SELECT t.id, length(t.text)::int AS chars, greatest(ts_rank(t.search, ${inNote}), CASE WHEN t.edited_at IS NULL THEN coalesce(ts_rank(o.search, ${inCleanUp}), 0) ELSE 0 END)::float8 AS rank
    FROM found f JOIN transcriptions t ON t.id = f.id
    LEFT JOIN optimization_workflows o ON o.id = t.optimization_id
    ORDER BY rank DESC, t.id DESC
    LIMIT ${limit}`;
  // The best notes while their texts fit the budget (the best one always): each is read and cut whole.
  let chars = 0;
  const hits = ranked.filter((hit, i) => (chars += hit.chars) <= maxChars || i === 0);
  if (!hits.length) return [];
  // The candidates' texts in a second read, as the text each shows: the ranking above reads no text.
  const rows = await prisma.$queryRaw<Omit<AnswerCandidate, "rank">[]>`
    SELECT t.id, t.title, ${SHOWN_TEXT_SQL} AS shown, t.segments::text AS segments, t.insights, t.language, coalesce(t.recorded_at, t.created_at) AS "recordedAt"
    FROM transcriptions t LEFT JOIN optimization_workflows o ON o.id = t.optimization_id
    WHERE t.user_id = ${userId} AND t.id = ANY(${hits.map((h) => h.id)}::text[])`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return hits.flatMap((hit) => {
    const row = byId.get(hit.id);
    return row ? [{ ...row, rank: hit.rank }] : []; // deleted between the two reads
  });
}

/** How many of the person's notes hold this phrase (their search vectors: one index lookup). */
export async function notesHoldingPhrase({ userId, phrase }: { userId: string; phrase: string }): Promise<number> {
  const [{ notes }] = await (await db()).$queryRaw<{ notes: number }[]>`
    SELECT count(*)::int AS notes FROM transcriptions
    WHERE user_id = ${userId} AND search @@ phraseto_tsquery('simple', ${phrase})`;
  return notes;
}
