-- Search in the note's language (issue 33): "countries" finds "country", "Häuser" finds "Haus".
--
-- Each search vector is now two vectors in one: the words stemmed by PostgreSQL's snowball
-- configuration for the note's language (ISO 639-1 -> configuration below; none for a language
-- without one), followed by the words as they are ('simple': lower case, no stemming, no stop
-- words left out). The stemmed half finds other forms of a word; the plain half keeps finding
-- what it found before: stop words, words of languages without a stemmer, and the prefix of a
-- word being typed whose stem is not its prefix ("generatio" is a prefix of "generation", not of
-- its stem "generat"). Both halves sit in one GIN-indexed column, so one index scan finds both.
--
-- A query has no language. lib/transcription/transcripts/search-transcriptions.ts stems each
-- searched word in every configuration here, searches the index with the OR of those queries
-- (any language's reading of it), and keeps a note only if the query in the note's own language
-- matches it: the index stays usable and a word stemmed by one language never finds a note in
-- another. That file's SEARCH_CONFIGURATIONS must list the same languages (tests/api/search.test.ts
-- checks every one against the vectors stored here).
--
-- The clean-up (optimization_workflows) has no note to read the language from in a generated
-- column, so it keeps the note's language in a column of its own (set when the clean-up starts;
-- filled here from the notes that share it).
CREATE FUNCTION "note_search_vector"(language text, doc text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE language
        WHEN 'ar' THEN to_tsvector('arabic'::regconfig, doc)
        WHEN 'ca' THEN to_tsvector('catalan'::regconfig, doc)
        WHEN 'da' THEN to_tsvector('danish'::regconfig, doc)
        WHEN 'de' THEN to_tsvector('german'::regconfig, doc)
        WHEN 'el' THEN to_tsvector('greek'::regconfig, doc)
        WHEN 'en' THEN to_tsvector('english'::regconfig, doc)
        WHEN 'es' THEN to_tsvector('spanish'::regconfig, doc)
        WHEN 'eu' THEN to_tsvector('basque'::regconfig, doc)
        WHEN 'fi' THEN to_tsvector('finnish'::regconfig, doc)
        WHEN 'fr' THEN to_tsvector('french'::regconfig, doc)
        WHEN 'ga' THEN to_tsvector('irish'::regconfig, doc)
        WHEN 'hi' THEN to_tsvector('hindi'::regconfig, doc)
        WHEN 'hu' THEN to_tsvector('hungarian'::regconfig, doc)
        WHEN 'hy' THEN to_tsvector('armenian'::regconfig, doc)
        WHEN 'id' THEN to_tsvector('indonesian'::regconfig, doc)
        WHEN 'it' THEN to_tsvector('italian'::regconfig, doc)
        WHEN 'lt' THEN to_tsvector('lithuanian'::regconfig, doc)
        WHEN 'nb' THEN to_tsvector('norwegian'::regconfig, doc)
        WHEN 'ne' THEN to_tsvector('nepali'::regconfig, doc)
        WHEN 'nl' THEN to_tsvector('dutch'::regconfig, doc)
        WHEN 'nn' THEN to_tsvector('norwegian'::regconfig, doc)
        WHEN 'no' THEN to_tsvector('norwegian'::regconfig, doc)
        WHEN 'pt' THEN to_tsvector('portuguese'::regconfig, doc)
        WHEN 'ro' THEN to_tsvector('romanian'::regconfig, doc)
        WHEN 'ru' THEN to_tsvector('russian'::regconfig, doc)
        WHEN 'sr' THEN to_tsvector('serbian'::regconfig, doc)
        WHEN 'sv' THEN to_tsvector('swedish'::regconfig, doc)
        WHEN 'ta' THEN to_tsvector('tamil'::regconfig, doc)
        WHEN 'tr' THEN to_tsvector('turkish'::regconfig, doc)
        WHEN 'yi' THEN to_tsvector('yiddish'::regconfig, doc)
        ELSE ''::tsvector END || to_tsvector('simple'::regconfig, doc) $$;

ALTER TABLE "optimization_workflows" ADD COLUMN "language" TEXT;
UPDATE "optimization_workflows" o SET "language" = t."language"
    FROM "transcriptions" t WHERE t."optimization_id" = o."id";

-- A generated column's expression cannot be altered before PostgreSQL 17: dropped and added again.
DROP INDEX "transcriptions_search_idx";
ALTER TABLE "transcriptions" DROP COLUMN "search";
ALTER TABLE "transcriptions" ADD COLUMN "search" tsvector
    GENERATED ALWAYS AS ("note_search_vector"("language",
        coalesce("title", '') || ' ' || "text"
        || ' ' || coalesce("insights" ->> 'title', '')
        || ' ' || coalesce("insights" ->> 'summary', '')
        || ' ' || coalesce(jsonb_path_query_array("insights", '$.action_items[*].text')::text, ''))) STORED;
CREATE INDEX "transcriptions_search_idx" ON "transcriptions" USING GIN ("search");

DROP INDEX "optimization_workflows_search_idx";
ALTER TABLE "optimization_workflows" DROP COLUMN "search";
ALTER TABLE "optimization_workflows" ADD COLUMN "search" tsvector
    GENERATED ALWAYS AS ("note_search_vector"("language", coalesce("optimized_text", ''))) STORED;
CREATE INDEX "optimization_workflows_search_idx" ON "optimization_workflows" USING GIN ("search");
