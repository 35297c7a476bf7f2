-- A live recording's note records while its whole audio is heard again after Stop, and when that
-- replaced the live text (lib/transcription/live/hear-again.ts).
ALTER TABLE "transcriptions" ADD COLUMN "text_improving_since" TIMESTAMPTZ(3);
ALTER TABLE "transcriptions" ADD COLUMN "text_improved_at" TIMESTAMPTZ(3);
