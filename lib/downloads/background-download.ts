import { env } from "@/lib/env.ts";
import type { log as defaultLog } from "@/lib/log.ts";
import { writeDownloadStatus, type ModelDownloadStatus } from "@/lib/downloads/download-status.ts";
import { plainDownloadFailure } from "@/lib/downloads/verified-download.ts";

// A model fetched in the background by `npm start`'s launcher (whisper's, the local writer's):
// attempts until one succeeds, each resumable and checked (the caller's `attempt`), a growing wait
// between them, and progress in a status file in MODELS_DIR that /api/health and Settings read
// (written at most once a second while bytes arrive). Stopping ends the wait at once.

export type BackgroundDownload = { stop(): Promise<void>; done: Promise<void> };

export type BackgroundDownloadOptions = {
  /** The file's name, as the status says it. */
  model: string;
  modelsDir: string;
  /** The status file's name in modelsDir (each model has its own). */
  statusFile?: string;
  /** One attempt: resolves with the file's path, reporting bytes as they come. */
  attempt: (onProgress: (received: number, total: number | null) => void) => Promise<string>;
  /** Wait before attempt n + 1 (n = 1, 2, …) after a failed one. */
  retryDelayMs?: (failures: number) => number;
  log: Pick<typeof defaultLog, "info" | "warn" | "debug">;
  /** What the first failure tells the person (later ones are logged at debug). */
  firstFailure: string;
  onReady?: (modelPath: string) => void;
};

const backoff = (failures: number) => Math.min(60 * 60_000, 30_000 * 2 ** (failures - 1));

export function downloadInBackground(options: BackgroundDownloadOptions): BackgroundDownload {
  const { model, modelsDir, statusFile, attempt, retryDelayMs = backoff, log } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let status: ModelDownloadStatus = { model, pid: process.pid, data_dir: env().dataDir, state: "downloading", received_bytes: 0, total_bytes: null };
  let lastWrite = 0;
  const publish = async (next: Partial<ModelDownloadStatus>, force = true) => {
    status = { ...status, ...next };
    if (!force && Date.now() - lastWrite < 1000) return;
    lastWrite = Date.now();
    await writeDownloadStatus(modelsDir, status, statusFile).catch(() => undefined);
  };

  const run = async () => {
    for (let failures = 0; !stopped; ) {
      await publish({ state: "downloading", retry_at: undefined, failed_at: undefined, error: undefined });
      try {
        const modelPath = await attempt((received, total) => void publish({ received_bytes: received, total_bytes: total }, false));
        await writeDownloadStatus(modelsDir, null, statusFile);
        options.onReady?.(modelPath);
        return;
      } catch (err) {
        failures++;
        const delay = retryDelayMs(failures);
        const reason = err instanceof Error ? err.message : String(err);
        // The status file is what /api/health shows anyone: the plain reason; the detail goes to the log.
        await publish({ state: "waiting", error: plainDownloadFailure(err), failed_at: new Date().toISOString(), retry_at: new Date(Date.now() + delay).toISOString() });
        if (failures === 1) log.warn(options.firstFailure, { model, reason });
        else log.debug("model download failed again", { model, failures, reason, retry_in_ms: delay });
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, delay);
        });
      }
    }
  };

  const done = run().catch((err) => log.warn("model download stopped", { model, reason: String(err) }));
  return {
    done,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      if (status.state === "waiting") await done;
      await writeDownloadStatus(modelsDir, null, statusFile);
    },
  };
}
