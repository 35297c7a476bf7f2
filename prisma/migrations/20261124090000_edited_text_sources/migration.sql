-- AlterTable
ALTER TABLE "transcriptions" ADD COLUMN "edited_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "content_items" ADD COLUMN "source_text_kind" TEXT;

-- A built-in preset for captions (Instagram): about half the note, casual, hashtags at the end.
INSERT INTO "presets" ("id", "user_id", "name", "tone", "length", "format", "hashtags", "include_title", "updated_at") VALUES
    ('builtin-caption', NULL, 'Caption with hashtags', 'casual', 'medium', 'single', ARRAY[]::TEXT[], false, CURRENT_TIMESTAMP);
