import { Prisma } from "@/lib/db/generated/client.ts";
import { TRIMMED_WHITESPACE } from "@/lib/notes/store/shown-text.ts";

// The SQL twin of shownTextOf (shown-text.ts, beside it): the text a note shows, for the raw
// queries that cut or quote it (search snippets, Ask's passages). Over `transcriptions t LEFT JOIN
// optimization_workflows o ON o.id = t.optimization_id`. A clean-up is blank when nothing is left
// after trimming what JavaScript's trim() trims (btrim over the same characters);
// tests/unit/shown-text.test.ts runs both on the same cases.

export const SHOWN_TEXT_SQL = Prisma.sql`(CASE
  WHEN t.edited_at IS NOT NULL THEN t.text
  WHEN o.status = 'completed' AND btrim(o.optimized_text, ${TRIMMED_WHITESPACE}) <> '' THEN o.optimized_text
  ELSE t.text END)`;

/** Which one it is, as shownTextOf's `kind`. */
export const SHOWN_TEXT_KIND_SQL = Prisma.sql`(CASE
  WHEN t.edited_at IS NOT NULL THEN 'edited'
  WHEN o.status = 'completed' AND btrim(o.optimized_text, ${TRIMMED_WHITESPACE}) <> '' THEN 'optimized'
  ELSE 'recognized' END)`;
