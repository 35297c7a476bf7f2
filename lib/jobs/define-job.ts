import type { z } from "zod";

// A background job: a name, its payload schema, its retry policy, and what it does. Payloads
// carry ids only — never transcript text, keys or URLs — because the queue's tables and logs are
// not a place for them. The payload is checked when queued and again when run (the queue's rows
// outlive deploys).

export type JobContext = {
  jobId: string;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  /** True when a failure now is final (no retry left). */
  lastAttempt: boolean;
};

export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  name: string;
  payload: S;
  /** Retries after the first run (default 3), spaced by retryDelaySeconds with exponential backoff. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A run still active after this long is presumed lost and retried (default 15 minutes). */
  expireInSeconds?: number;
  /** "short": at most one job waiting per singleton key (enqueueJobOnce); one running may be beside it. */
  policy?: "standard" | "short";
  /** Runs at once per process (default JOBS_CONCURRENCY). */
  concurrency?: () => number;
  run(data: z.output<S>, ctx: JobContext): Promise<void>;
};

/**
 * What queuing a job needs (its name, payload and queue options), without what runs it: a domain can
 * queue a job whose runner depends on that domain without importing it back.
 */
export type JobSpec<S extends z.ZodType = z.ZodType> = Omit<JobDefinition<S>, "run">;

export function defineJob<S extends z.ZodType>(def: JobDefinition<S>): JobDefinition<S> {
  return def;
}

/** The job's payload, or an error naming the job and the wrong fields. */
export function checkPayload<S extends z.ZodType>(job: JobSpec<S>, data: unknown): z.output<S> {
  const parsed = job.payload.safeParse(data);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join(".") || "(payload)"}: ${i.message}`).join("; ");
    throw new Error(`The ${job.name} job's payload is invalid: ${fields}`);
  }
  return parsed.data;
}

/** Periodic work of every worker process, e.g. re-dispatching runs whose worker died. */
export type Sweep = { name: string; intervalSeconds(): number; run(): Promise<unknown> };
