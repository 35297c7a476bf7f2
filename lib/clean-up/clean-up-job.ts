import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { env } from "@/lib/env.ts";
import { defineJob } from "@/lib/jobs/define-job.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { recoverStale, staleLeases } from "@/lib/jobs/recover-stale.ts";
import { log } from "@/lib/log.ts";
import { runCleanUp } from "@/lib/clean-up/run-clean-up.ts";

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
  const prisma = await db();
  await prisma.cleanUpWorkflow.updateMany({ where: { id: workflowId, status: { in: ["pending", "running"] } }, data: { jobId } });
  return jobId;
}

/**
 * Background workflows that nobody is working on — a run whose worker died (its heartbeat
 * stopped), or a dispatch that never reached the queue — get a new run. Finished chunks are kept.
 * Every worker process runs this periodically; the internal recovery endpoint runs it on demand.
 */
export async function recoverStaleCleanUps({ staleSeconds }: { staleSeconds?: number } = {}): Promise<string[]> {
  const prisma = await db();
  const staleBefore = new Date(Date.now() - (staleSeconds ?? env().OPTIMIZER_STALE_SECONDS) * 1000);
  const candidates = await prisma.cleanUpWorkflow.findMany({
    where: { mode: "background", OR: staleLeases(staleBefore) },
    select: { id: true, jobId: true, updatedAt: true },
    take: 100,
  });
  const recovered = await recoverStale(
    cleanUpJob,
    candidates,
    async (workflow) =>
      (await prisma.cleanUpWorkflow.updateMany({ where: { id: workflow.id, updatedAt: workflow.updatedAt }, data: { heartbeatAt: null } })).count > 0,
    async (workflow) => {
      await dispatchCleanUp(workflow.id);
      return true;
    },
  );
  if (recovered.length) log.info("optimizations recovered", { count: recovered.length });
  return recovered.map((workflow) => workflow.id);
}
