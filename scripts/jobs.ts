// The background work of this service's worker processes: `npm start` (unless JOBS_IN_APP=false)
// and `npm run worker`. Registered here, where processes are assembled, so lib/jobs knows no domain.
import { env } from "@/lib/env.ts";
import type { JobDefinition, Sweep } from "@/lib/jobs/define-job.ts";
import { generateVariantJob, recoverGenerationTasks } from "@/lib/content/generation-job.ts";
import { optimizeTranscriptJob, recoverStaleOptimizations } from "@/lib/optimizer/optimize-transcript-job.ts";
import { recognizePieceJob, recoverStalePieces } from "@/lib/transcription/recognize-pieces-job.ts";

export const JOBS: JobDefinition[] = [recognizePieceJob, optimizeTranscriptJob, generateVariantJob];

export const SWEEPS: Sweep[] = [
  {
    name: "recover-stale-optimizations",
    intervalSeconds: () => Math.min(30, Math.max(1, env().OPTIMIZER_STALE_SECONDS / 2)),
    run: () => recoverStaleOptimizations(),
  },
  {
    name: "recover-stale-recognition-pieces",
    intervalSeconds: () => Math.min(15, Math.max(1, env().RECOGNITION_PIECE_STALE_SECONDS / 2)),
    run: () => recoverStalePieces(),
  },
  { name: "recover-generation-tasks", intervalSeconds: () => 60, run: () => recoverGenerationTasks() },
];
