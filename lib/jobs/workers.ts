import type PgBoss from "pg-boss";
import { env } from "@/lib/env.ts";
import { errorFields, log } from "@/lib/log.ts";
import { checkPayload, type JobDefinition, type Sweep } from "@/lib/jobs/define-job.ts";
import { jobQueue } from "@/lib/jobs/queue.ts";

export type JobWorkers = { stop(): Promise<void> };

async function runJob(definition: JobDefinition, job: PgBoss.JobWithMetadata<object>): Promise<void> {
  const ctx = { jobId: job.id, attempt: job.retryCount + 1, lastAttempt: job.retryCount >= job.retryLimit };
  const started = Date.now();
  try {
    await definition.run(checkPayload(definition, job.data), ctx);
    log.info("job completed", { job: definition.name, job_id: job.id, attempt: ctx.attempt, ms: Date.now() - started });
  } catch (err) {
    log.warn("job failed", { job: definition.name, job_id: job.id, attempt: ctx.attempt, final: ctx.lastAttempt, ...errorFields(err) });
    throw err;
  }
}

function startSweep(sweep: Sweep): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await sweep.run();
    } catch (err) {
      log.warn("sweep failed", { sweep: sweep.name, ...errorFields(err) });
    } finally {
      running = false;
    }
  };
  void tick(); // at start: pick up work that a dead process left behind
  const timer = setInterval(tick, sweep.intervalSeconds() * 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Works the given jobs in this process (JOBS_CONCURRENCY runs at a time per job, unless the job
 * says otherwise) and runs the sweeps until stopped. The process that starts it (lib/background-work.ts) says which.
 */
export async function startJobWorkers(jobs: JobDefinition[], sweeps: Sweep[]): Promise<JobWorkers> {
  const { JOBS_POLL_SECONDS, JOBS_CONCURRENCY } = env();
  const workerIds: string[] = [];
  let boss: PgBoss | undefined;
  for (const definition of jobs) {
    boss = await jobQueue(definition);
    for (let i = 0; i < (definition.concurrency?.() ?? JOBS_CONCURRENCY); i++) {
      const options = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: JOBS_POLL_SECONDS };
      workerIds.push(await boss.work<object>(definition.name, options, async ([job]) => runJob(definition, job)));
    }
  }
  const stopSweeps = sweeps.map(startSweep);
  log.info("job workers started", { jobs: jobs.map((j) => j.name), concurrency: JOBS_CONCURRENCY });
  return {
    async stop() {
      stopSweeps.forEach((stop) => stop());
      await Promise.all(workerIds.map((id) => boss?.offWork({ id })));
    },
  };
}
