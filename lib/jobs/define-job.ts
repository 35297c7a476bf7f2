// A background job: a name, its retry policy, and what it does. Payloads carry ids only — never
// transcript text, keys or URLs — because the queue's tables and logs are not a place for them.

export type JobContext = {
  jobId: string;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  /** True when a failure now is final (no retry left). */
  lastAttempt: boolean;
};

export type JobDefinition<T extends object> = {
  name: string;
  /** Retries after the first run (default 3), spaced by retryDelaySeconds with exponential backoff. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A run still active after this long is presumed lost and retried (default 15 minutes). */
  expireInSeconds?: number;
  run(data: T, ctx: JobContext): Promise<void>;
};

export function defineJob<T extends object>(def: JobDefinition<T>): JobDefinition<T> {
  return def;
}
