-- A clean-up replaces the note's words only when it keeps them (lib/optimizer/clean-up-guard.ts):
-- why a part of it was refused, and what the finished clean-up changed, word by word.
ALTER TABLE "optimization_workflows" ADD COLUMN "rejected_reason" TEXT;
ALTER TABLE "optimization_workflows" ADD COLUMN "changes" JSONB;
