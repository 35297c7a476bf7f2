-- "Rewrite as…" (lib/rewrites): a person's own rewrite styles, and rewrites of a note kept beside
-- it. A table, not a column on the note: a note has any number of rewrites, each edited and
-- deleted on its own, and they are listed without reading the note's text.

-- CreateTable
CREATE TABLE "rewrite_styles" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "instructions" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rewrite_styles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "note_rewrites" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "transcription_id" TEXT NOT NULL,
    "style" TEXT NOT NULL,
    "style_id" TEXT,
    "style_name" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "written_by" TEXT NOT NULL,
    "offline_reason" TEXT,
    "edited_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "note_rewrites_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "rewrite_styles_user_id_created_at_idx" ON "rewrite_styles"("user_id", "created_at");
CREATE INDEX "note_rewrites_transcription_id_created_at_idx" ON "note_rewrites"("transcription_id", "created_at");
CREATE INDEX "note_rewrites_user_id_created_at_idx" ON "note_rewrites"("user_id", "created_at");
CREATE INDEX "note_rewrites_style_id_idx" ON "note_rewrites"("style_id");

-- AddForeignKey
ALTER TABLE "rewrite_styles" ADD CONSTRAINT "rewrite_styles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "note_rewrites" ADD CONSTRAINT "note_rewrites_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "note_rewrites" ADD CONSTRAINT "note_rewrites_transcription_id_fkey" FOREIGN KEY ("transcription_id") REFERENCES "transcriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "note_rewrites" ADD CONSTRAINT "note_rewrites_style_id_fkey" FOREIGN KEY ("style_id") REFERENCES "rewrite_styles"("id") ON DELETE SET NULL ON UPDATE CASCADE;
