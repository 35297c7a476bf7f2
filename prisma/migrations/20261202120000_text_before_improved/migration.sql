-- The text a note held before its recording was heard again (the live second pass, or a note heard
-- again with a better recognizer on request), so the person can put it back: text, raw text,
-- segments, dictionary replacements, engine and clean-up. Null: nothing to put back.
ALTER TABLE "transcriptions" ADD COLUMN "text_before_improved" JSONB;
