-- A note's search vector indexes its first 100,000 characters (issue 60): a tsvector holds at most
-- 1 MB, and an edit of 999,999 characters of ordinary words failed with 54000 "string is too long
-- for tsvector" (a 500, the edit lost). The whole text is kept and shown; search finds the words of
-- about the first two hours of speech. Every vector the function made before fits the cap (it was
-- made without error), so the rows already stored need no rewrite.
--
-- The worst case under the cap: 100,000 characters of distinct short words (about 17,000 of them),
-- each a lexeme with one position, in both halves (stemmed and 'simple'): about 450 KB.
CREATE OR REPLACE FUNCTION "note_search_vector"(language text, doc text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE language
        WHEN 'ar' THEN to_tsvector('arabic'::regconfig, left(doc, 100000))
        WHEN 'ca' THEN to_tsvector('catalan'::regconfig, left(doc, 100000))
        WHEN 'da' THEN to_tsvector('danish'::regconfig, left(doc, 100000))
        WHEN 'de' THEN to_tsvector('german'::regconfig, left(doc, 100000))
        WHEN 'el' THEN to_tsvector('greek'::regconfig, left(doc, 100000))
        WHEN 'en' THEN to_tsvector('english'::regconfig, left(doc, 100000))
        WHEN 'es' THEN to_tsvector('spanish'::regconfig, left(doc, 100000))
        WHEN 'eu' THEN to_tsvector('basque'::regconfig, left(doc, 100000))
        WHEN 'fi' THEN to_tsvector('finnish'::regconfig, left(doc, 100000))
        WHEN 'fr' THEN to_tsvector('french'::regconfig, left(doc, 100000))
        WHEN 'ga' THEN to_tsvector('irish'::regconfig, left(doc, 100000))
        WHEN 'hi' THEN to_tsvector('hindi'::regconfig, left(doc, 100000))
        WHEN 'hu' THEN to_tsvector('hungarian'::regconfig, left(doc, 100000))
        WHEN 'hy' THEN to_tsvector('armenian'::regconfig, left(doc, 100000))
        WHEN 'id' THEN to_tsvector('indonesian'::regconfig, left(doc, 100000))
        WHEN 'it' THEN to_tsvector('italian'::regconfig, left(doc, 100000))
        WHEN 'lt' THEN to_tsvector('lithuanian'::regconfig, left(doc, 100000))
        WHEN 'nb' THEN to_tsvector('norwegian'::regconfig, left(doc, 100000))
        WHEN 'ne' THEN to_tsvector('nepali'::regconfig, left(doc, 100000))
        WHEN 'nl' THEN to_tsvector('dutch'::regconfig, left(doc, 100000))
        WHEN 'nn' THEN to_tsvector('norwegian'::regconfig, left(doc, 100000))
        WHEN 'no' THEN to_tsvector('norwegian'::regconfig, left(doc, 100000))
        WHEN 'pt' THEN to_tsvector('portuguese'::regconfig, left(doc, 100000))
        WHEN 'ro' THEN to_tsvector('romanian'::regconfig, left(doc, 100000))
        WHEN 'ru' THEN to_tsvector('russian'::regconfig, left(doc, 100000))
        WHEN 'sr' THEN to_tsvector('serbian'::regconfig, left(doc, 100000))
        WHEN 'sv' THEN to_tsvector('swedish'::regconfig, left(doc, 100000))
        WHEN 'ta' THEN to_tsvector('tamil'::regconfig, left(doc, 100000))
        WHEN 'tr' THEN to_tsvector('turkish'::regconfig, left(doc, 100000))
        WHEN 'yi' THEN to_tsvector('yiddish'::regconfig, left(doc, 100000))
        ELSE ''::tsvector END || to_tsvector('simple'::regconfig, left(doc, 100000)) $$;
