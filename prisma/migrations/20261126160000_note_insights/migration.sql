-- Insights on every note (lib/insights): title, summary, key points and action items with their
-- ticks, one JSONB value on the note's row. A column, not a table: a note has one set, read with
-- it on every list, search and export, written as a whole; and a generated column can only read
-- its own row, so the search vector can include them without a trigger.
ALTER TABLE "transcriptions" ADD COLUMN "insights" JSONB;

-- The search vector now also holds the insights' title, summary and action items (the key points
-- are sentences of the text, already in it). A generated column's expression cannot be altered
-- before PostgreSQL 17, so it is dropped and added again (with its index), on PGlite as on PostgreSQL.
DROP INDEX "transcriptions_search_idx";
ALTER TABLE "transcriptions" DROP COLUMN "search";
ALTER TABLE "transcriptions" ADD COLUMN "search" tsvector
    GENERATED ALWAYS AS (to_tsvector('simple'::regconfig,
        coalesce("title", '') || ' ' || "text"
        || ' ' || coalesce("insights" ->> 'title', '')
        || ' ' || coalesce("insights" ->> 'summary', '')
        || ' ' || coalesce(jsonb_path_query_array("insights", '$.action_items[*].text')::text, ''))) STORED;
CREATE INDEX "transcriptions_search_idx" ON "transcriptions" USING GIN ("search");
