-- Tags and pins of notes (issue 33). Tags are an array on the note, not a table: they are read
-- with every note (no join for a list), a filter is `tags @> ARRAY[…]` on one GIN index, and a
-- rename or delete across all notes is one UPDATE. Their case-insensitive uniqueness per person is
-- kept by lib/tags (under a per-person lock), not by a unique index. Nullable, as Prisma makes
-- every scalar list column; the default fills it and nothing writes NULL.
ALTER TABLE "transcriptions" ADD COLUMN "tags" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "transcriptions" ADD COLUMN "pinned" BOOLEAN NOT NULL DEFAULT false;

CREATE INDEX "transcriptions_tags_idx" ON "transcriptions" USING GIN ("tags");
CREATE INDEX "transcriptions_user_id_pinned_id_idx" ON "transcriptions"("user_id", "pinned", "id");
