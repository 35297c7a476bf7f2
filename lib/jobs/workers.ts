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

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function startSweep(sweep: Sweep, firstAfter: Promise<void>): () => void {
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      await sweep.run();
    } catch (err) {
      log.warn("sweep failed", { sweep: sweep.name, ...errorFields(err) });
    } finally {
      running = false;
    }
  };
  // At start (or once the process is ready for it): pick up work that a dead process left behind.
  void firstAfter.then(tick);
  const timer = setInterval(tick, sweep.intervalSeconds() * 1000);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/**
 * Works the given jobs in this process (JOBS_CONCURRENCY runs at a time per job, unless the job
 * says otherwise) and runs the sweeps until stopped. The process that starts it (lib/background-work.ts) says which.
 */
export async function startJobWorkers(
  jobs: JobDefinition[],
  sweeps: Sweep[],
  {
    sweepsFrom = Promise.resolve(),
    sweepsApartMs = 0,
  }: {
    /** The sweeps' first runs wait for this, then start `sweepsApartMs` apart; then each runs on its interval. */
    sweepsFrom?: Promise<void>;
    sweepsApartMs?: number;
  } = {},
): Promise<JobWorkers> {
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
  const stopSweeps = sweeps.map((sweep, i) => startSweep(sweep, sweepsFrom.then(() => delay(i * sweepsApartMs))));
  log.info("job workers started", { jobs: jobs.map((j) => j.name), concurrency: JOBS_CONCURRENCY });
  return {
    async stop() {
      stopSweeps.forEach((stop) => stop());
      await Promise.all(workerIds.map((id) => boss?.offWork({ id })));
    },
  };
}
