import { z } from "zod";
import { env } from "@/lib/env.ts";
import { defineJob } from "@/lib/jobs/define-job.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { recoverStale, staleLeases } from "@/lib/jobs/recover-stale.ts";
import { log } from "@/lib/log.ts";
import { runCleanUp } from "@/lib/clean-up/run-clean-up.ts";
import { findStaleCleanUps, releaseCleanUpLease, setCleanUpJob } from "@/lib/clean-up/store/clean-up-workflows.ts";

export const cleanUpJob = defineJob({
  name: "optimize-transcript",
  payload: z.strictObject({ workflowId: z.string().min(1).max(100) }),
  retryLimit: 3,
  retryDelaySeconds: 5,
  expireInSeconds: 60 * 60,
  async run({ workflowId }, { jobId, lastAttempt }) {
    await runCleanUp({ workflowId, jobId, final: lastAttempt });
  },
});

/** Queues a run of the workflow and remembers its job. */
export async function dispatchCleanUp(workflowId: string): Promise<string> {
  const jobId = await enqueueJob(cleanUpJob, { workflowId });
  await setCleanUpJob(workflowId, jobId);
  return jobId;
}

/**
 * Background workflows that nobody is working on — a run whose worker died (its heartbeat
 * stopped), or a dispatch that never reached the queue — get a new run. Finished chunks are kept.
 * Every worker process runs this periodically; the internal recovery endpoint runs it on demand.
 */
export async function recoverStaleCleanUps({ staleSeconds }: { staleSeconds?: number } = {}): Promise<string[]> {
  const staleBefore = new Date(Date.now() - (staleSeconds ?? env().OPTIMIZER_STALE_SECONDS) * 1000);
  const candidates = await findStaleCleanUps(staleLeases(staleBefore));
  const recovered = await recoverStale(
    cleanUpJob,
    candidates,
    (workflow) => releaseCleanUpLease(workflow),
    async (workflow) => {
      await dispatchCleanUp(workflow.id);
      return true;
    },
  );
  if (recovered.length) log.info("optimizations recovered", { count: recovered.length });
  return recovered.map((workflow) => workflow.id);
}
