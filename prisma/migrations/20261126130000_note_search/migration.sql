-- Full-text search over notes (GET /api/v1/transcriptions?q=): a stored tsvector of each note's
-- title and text (the recognized text corrected by the dictionary, or the person's edit), and one
-- of each clean-up's text, both with GIN indexes. The 'simple' configuration (lower case, no
-- stemming) works for every language a note may be in. schema.prisma cannot describe these
-- columns; tests/support/schema-drift.ts lists them as database-only.
ALTER TABLE "transcriptions" ADD COLUMN "search" tsvector
    GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, coalesce("title", '') || ' ' || "text")) STORED;
CREATE INDEX "transcriptions_search_idx" ON "transcriptions" USING GIN ("search");

ALTER TABLE "optimization_workflows" ADD COLUMN "search" tsvector
    GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, coalesce("optimized_text", ''))) STORED;
CREATE INDEX "optimization_workflows_search_idx" ON "optimization_workflows" USING GIN ("search");
