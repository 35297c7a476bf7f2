-- A master made from a note remembers which version of the note's text it copied
-- (lib/content/items/source-note.ts), so it can say when the note changed since.
ALTER TABLE "content_items" ADD COLUMN "source_note_hash" TEXT;
