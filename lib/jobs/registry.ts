import { env } from "@/lib/env.ts";
import type { JobDefinition } from "@/lib/jobs/define-job.ts";
import { generateVariantJob, recoverGenerationTasks } from "@/lib/content/generation-job.ts";
import { optimizeTranscriptJob, recoverStaleOptimizations } from "@/lib/optimizer/optimize-transcript-job.ts";

/** Periodic work of every worker process, e.g. re-dispatching runs whose worker died. */
export type Sweep = { name: string; intervalSeconds(): number; run(): Promise<unknown> };

// Every job a worker process runs. Enqueueing needs only the definition; this list is for workers.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const JOBS: JobDefinition<any>[] = [optimizeTranscriptJob, generateVariantJob];

export const SWEEPS: Sweep[] = [
  {
    name: "recover-stale-optimizations",
    intervalSeconds: () => Math.min(30, Math.max(1, env().OPTIMIZER_STALE_SECONDS / 2)),
    run: () => recoverStaleOptimizations(),
  },
  { name: "recover-generation-tasks", intervalSeconds: () => 60, run: () => recoverGenerationTasks() },
];
