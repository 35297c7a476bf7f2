-- A generation task is held by one run of its job at a time: the run's id and a heartbeat it keeps
-- while the post is waiting for the model or being written. A second run (a retry of a job the queue
-- presumed lost, a second worker) finds the heartbeat fresh and leaves the task alone, so no post
-- is generated twice; a heartbeat that stopped (the worker died) lets the next run take it.
ALTER TABLE "generation_tasks" ADD COLUMN "execution_id" TEXT;
ALTER TABLE "generation_tasks" ADD COLUMN "heartbeat_at" TIMESTAMPTZ(3);
