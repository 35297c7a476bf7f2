import { notFound } from "@/lib/http/errors.ts";
import { jobState } from "@/lib/jobs/queue.ts";
import { cleanUpJob } from "@/lib/clean-up/clean-up-job.ts";
import { findCleanUpStatus } from "@/lib/clean-up/store/clean-up-workflows.ts";

/** Internal: a workflow's state and its queue job, for operators. No transcript text. */
export async function getWorkflowStatus({ id }: { id: string }) {
  const workflow = await findCleanUpStatus(id);
  if (!workflow) throw notFound(`The optimization workflow ${id}`);
  return {
    id: workflow.id,
    name: workflow.name,
    optimizer: workflow.optimizer,
    mode: workflow.mode,
    status: workflow.status,
    call_id: workflow.callId,
    execution_id: workflow.executionId,
    executions: workflow.executions,
    progress: { chunks_done: workflow.chunksDone, chunks_total: workflow.chunksTotal },
    heartbeat_at: workflow.heartbeatAt?.toISOString() ?? null,
    error: workflow.errorCode ? { code: workflow.errorCode, message: workflow.errorMessage } : null,
    chunks: workflow.chunks.map((c) => ({ index: c.index, attempts: c.attempts, completed_at: c.completedAt?.toISOString() ?? null })),
    job: workflow.jobId ? await jobState(cleanUpJob.name, workflow.jobId) : null,
  };
}
