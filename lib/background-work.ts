// The background work of this service's worker processes: the app's Next server (instrumentation.ts,
// unless JOBS_IN_APP=false) and `npm run worker`. Registered here, apart from lib/jobs, so that the
// queue knows no domain.
import { env } from "@/lib/env.ts";
import type { JobDefinition, Sweep } from "@/lib/jobs/define-job.ts";
import { startJobWorkers } from "@/lib/jobs/workers.ts";
import { generateVariantJob, recoverGenerationTasks } from "@/lib/posts/generation/generation-job.ts";
import { cleanUpJob, recoverStaleCleanUps } from "@/lib/clean-up/clean-up-job.ts";
import { writeInsightsJob } from "@/lib/insights/writer-insights-job.ts";
import { refreshSearchStatistics } from "@/lib/notes/search-notes.ts";
import { forgetExpiredAudio } from "@/lib/note-audio/sweep-audio-retention.ts";
import { webhookDeliveryJob } from "@/lib/webhooks/deliveries/delivery-job.ts";
import { recoverOverdueDeliveries } from "@/lib/webhooks/deliveries/recover-deliveries.ts";
import { defineWebhookEventJob } from "@/lib/webhooks/events/event-job.ts";
import { getNote } from "@/lib/notes/get-note.ts";
import { getItem } from "@/lib/posts/items/get-item.ts";
import { getDelivery } from "@/lib/posts/delivery/get-delivery.ts";
import { recognizePieceJob, recoverStalePieces } from "@/lib/transcription/recognition/recognize-pieces-job.ts";
import { keepUnkeptLiveAudio } from "@/lib/transcription/live/keep-live-audio.ts";
import { recoverSecondPassesSweep, secondPassJob } from "@/lib/transcription/live/second-pass-job.ts";
import { finishIdleLiveRecordings } from "@/lib/transcription/live/finish-idle-live-recordings.ts";
import { whenListening } from "@/lib/server-listening.ts";

// The webhook event job reads what its events are about through the domains' own reads (as the API
// answers them), given here: those domains import lib/webhooks to emit events, so it imports none of them.
export const webhookEventJob = defineWebhookEventJob({ transcription: getNote, item: getItem, delivery: getDelivery });

export const JOBS: JobDefinition[] = [recognizePieceJob, secondPassJob, cleanUpJob, generateVariantJob, writeInsightsJob, webhookEventJob, webhookDeliveryJob];

export const SWEEPS: Sweep[] = [
  {
    name: "recover-stale-optimizations",
    intervalSeconds: () => Math.min(30, Math.max(1, env().OPTIMIZER_STALE_SECONDS / 2)),
    run: () => recoverStaleCleanUps(),
  },
  {
    name: "recover-stale-recognition-pieces",
    intervalSeconds: () => Math.min(15, Math.max(1, env().RECOGNITION_PIECE_STALE_SECONDS / 2)),
    run: () => recoverStalePieces(),
  },
  // Second passes queued before a restart, or cut short by one: still said to be improving, queued again.
  { name: "recover-second-passes", intervalSeconds: () => 15, run: () => recoverSecondPassesSweep() },
  { name: "recover-generation-tasks", intervalSeconds: () => 60, run: () => recoverGenerationTasks() },
  // Webhook deliveries saved but never queued (the process died in between).
  { name: "recover-webhook-deliveries", intervalSeconds: () => 60, run: () => recoverOverdueDeliveries() },
  // The embedded database's planner statistics, so search uses its index (PostgreSQL: autovacuum).
  { name: "refresh-search-statistics", intervalSeconds: () => 600, run: () => refreshSearchStatistics() },
  // Live recordings no audio reached for LIVE_RECORDING_IDLE_MINUTES: made notes, so nothing said is lost.
  { name: "finish-idle-live-recordings", intervalSeconds: () => 60, run: async () => void (await finishIdleLiveRecordings()) },
  // Live recordings finished by a process that stopped before their audio was kept.
  { name: "keep-unkept-live-audio", intervalSeconds: () => 300, run: () => keepUnkeptLiveAudio() },
  // Kept recordings older than AUDIO_RETENTION_DAYS (none when it is unset).
  { name: "forget-expired-audio", intervalSeconds: () => 3600, run: async () => void (await forgetExpiredAudio()) },
];

/**
 * The jobs and sweeps in a Next server, from its instrumentation. Asked to stop, it stops taking
 * new jobs; Next then exits, and a job cut short is run again by the queue and the sweeps, as
 * after any crash.
 */
export async function startServerJobWorkers(): Promise<void> {
  // The sweeps' first queries (new shapes for Prisma's wasm query compiler, compiled on first use)
  // took 0.7 s of the server's one thread, run together at start: the warm-up's health check, or
  // the first request after it, waited behind them. They start once the server listens, a second
  // after it and half a second apart (bench:restart).
  const sweepsFrom = whenListening(30).then(() => new Promise<void>((resolve) => setTimeout(resolve, 1000).unref()));
  const workers = await startJobWorkers(JOBS, SWEEPS, { sweepsFrom, sweepsApartMs: 500 });
  const stop = () => void workers.stop().catch(() => undefined);
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
