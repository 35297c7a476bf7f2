-- The languages a person's notes are in, read before every search (lib/transcription/transcripts/
-- search-query.ts): one index probe a language (a skip scan), not a read of every note.
CREATE INDEX "transcriptions_user_id_language_idx" ON "transcriptions"("user_id", "language");
