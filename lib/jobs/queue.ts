import PgBoss from "pg-boss";
import { databaseUrl } from "@/lib/db/client.ts";
import { errorFields, log } from "@/lib/log.ts";
import type { z } from "zod";
import { checkPayload, type JobSpec } from "@/lib/jobs/define-job.ts";

// The job queue is pg-boss on the service's own database: PostgreSQL, or the embedded PGlite
// served over the wire protocol. Jobs therefore survive restarts, and any number of app and
// worker processes can share one queue. pg-boss keeps its tables in its own schema ("pgboss").

type QueueState = { boss: Promise<PgBoss>; created: Map<string, Promise<void>> };
const state = globalThis as unknown as { voicedraftQueue?: QueueState };

async function connect(): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: await databaseUrl(),
    max: 4,
    application_name: "voicedraft-jobs",
    // Expired runs are retried and old jobs archived by whichever process supervises first.
    supervise: true,
    maintenanceIntervalSeconds: 30,
    schedule: false,
  });
  boss.on("error", (err) => log.error("job queue error", errorFields(err)));
  await boss.start();
  return boss;
}

function queueState(): QueueState {
  state.voicedraftQueue ??= {
    boss: connect().catch((err) => {
      state.voicedraftQueue = undefined;
      throw err;
    }),
    created: new Map(),
  };
  return state.voicedraftQueue;
}

const DEADLOCK = "40P01";

/**
 * Creates the job's queue (pg-boss does nothing when it exists). Processes starting together
 * create the same queues at once, and PostgreSQL may answer one of them "deadlock detected"
 * (its transaction rolled back, nothing half done): that one tries again, a few times.
 */
export async function createQueueOnce(boss: PgBoss, job: JobSpec): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(job.name, {
        name: job.name,
        policy: job.policy ?? "standard",
        retryLimit: job.retryLimit ?? 3,
        retryDelay: job.retryDelaySeconds ?? 5,
        retryBackoff: true,
        expireInSeconds: job.expireInSeconds ?? 15 * 60,
        retentionMinutes: 7 * 24 * 60,
      });
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== DEADLOCK || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}

/** The started pg-boss instance of this process, with the job's queue created. */
export async function jobQueue(job?: JobSpec): Promise<PgBoss> {
  const current = queueState();
  const boss = await current.boss;
  if (job && !current.created.has(job.name)) {
    const created = createQueueOnce(boss, job)
      .catch((err) => {
        current.created.delete(job.name);
        throw err;
      });
    current.created.set(job.name, created);
  }
  if (job) await current.created.get(job.name);
  return boss;
}

/** Queues one run of a job (its payload checked first); returns the job id. */
export async function enqueueJob<S extends z.ZodType>(
  job: JobSpec<S>,
  data: z.input<S>,
  options: { startAfterSeconds?: number } = {},
): Promise<string> {
  const payload = checkPayload(job, data) as object;
  const boss = await jobQueue(job);
  const id = await boss.send(job.name, payload, options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {});
  if (!id) throw new Error(`The queue ${job.name} refused the job.`);
  return id;
}

/**
 * Queues a run of a "short" job (JobSpec.policy) for `singletonKey` unless one is already waiting
 * for it: its id, or null when the queue kept the one waiting.
 */
export async function enqueueJobOnce<S extends z.ZodType>(job: JobSpec<S>, data: z.input<S>, singletonKey: string): Promise<string | null> {
  const payload = checkPayload(job, data) as object;
  const boss = await jobQueue(job);
  return boss.send(job.name, payload, { singletonKey });
}

/** The queue's view of one job (internal status endpoint). */
export async function jobState(name: string, id: string) {
  const boss = await jobQueue();
  const job = await boss.getJobById(name, id, { includeArchive: true });
  if (!job) return null;
  return {
    id: job.id,
    name: job.name,
    state: job.state,
    retry_count: job.retryCount,
    retry_limit: job.retryLimit,
    created_on: job.createdOn,
    started_on: job.startedOn ?? null,
    completed_on: job.completedOn ?? null,
  };
}

export async function closeJobQueue(): Promise<void> {
  const current = state.voicedraftQueue;
  state.voicedraftQueue = undefined;
  if (!current) return;
  const boss = await current.boss.catch(() => undefined);
  await boss?.stop({ graceful: false, close: true, wait: true, timeout: 5000 });
}
