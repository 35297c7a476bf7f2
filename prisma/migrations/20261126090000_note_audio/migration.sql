-- A note's own name (null: the app names it from its first sentence), when it was recorded on the
-- phone (null: when it was uploaded), and its kept recording: Opus at a speech bitrate, stored
-- once by the audio store named in audio_storage ("file": under DATA_DIR; "database": the
-- chunks below), so every app process sharing the database can serve it.
ALTER TABLE "transcriptions" ADD COLUMN "title" TEXT;
ALTER TABLE "transcriptions" ADD COLUMN "recorded_at" TIMESTAMPTZ(3);
ALTER TABLE "transcriptions" ADD COLUMN "audio_storage" TEXT;
ALTER TABLE "transcriptions" ADD COLUMN "audio_type" TEXT;
ALTER TABLE "transcriptions" ADD COLUMN "audio_bytes" INTEGER;
ALTER TABLE "transcriptions" ADD COLUMN "audio_kept_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "note_audio_chunks" (
    "transcription_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "note_audio_chunks_pkey" PRIMARY KEY ("transcription_id","seq")
);

-- AddForeignKey
ALTER TABLE "note_audio_chunks" ADD CONSTRAINT "note_audio_chunks_transcription_id_fkey" FOREIGN KEY ("transcription_id") REFERENCES "transcriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The retention sweep looks for audio kept before a date.
CREATE INDEX "transcriptions_audio_kept_at_idx" ON "transcriptions"("audio_kept_at");
