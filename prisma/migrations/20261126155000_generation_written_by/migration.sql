-- Who wrote a generation task's result (the writer, the offline rules, an external generator),
-- and why the offline rules wrote it when a writer is set up.
ALTER TABLE "generation_tasks" ADD COLUMN "written_by" TEXT;
ALTER TABLE "generation_tasks" ADD COLUMN "offline_reason" TEXT;
-- While the writer writes: the post so far (streamed), shown on the Make posts screen; cleared when done.
ALTER TABLE "generation_tasks" ADD COLUMN "partial_body" TEXT;
