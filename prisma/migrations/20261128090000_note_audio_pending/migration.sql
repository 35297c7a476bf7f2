-- A live recording's note is answered as soon as its text is saved; its recording is compressed and
-- kept just after (lib/transcription/live/keep-live-audio.ts). Set while that runs, cleared once the
-- audio is kept or given up; the API shows it as audio_pending.
ALTER TABLE "transcriptions" ADD COLUMN "audio_pending_since" TIMESTAMPTZ(3);
