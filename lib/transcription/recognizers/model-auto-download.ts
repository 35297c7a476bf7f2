import path from "node:path";
import { env } from "@/lib/env.ts";
import { log as defaultLog } from "@/lib/log.ts";
import { writeDownloadStatus, type ModelDownloadStatus } from "@/lib/downloads/download-status.ts";
import { DEFAULT_MODEL_BASE_URL, downloadWhisperModel, resolveWhisperModel } from "@/lib/transcription/recognizers/models.ts";

// With TRANSCRIBE_ENGINE=auto and no whisper model, the launcher fetches one in the background
// while PocketSphinx serves; the Next server's engine selection picks the file up when it lands
// in MODELS_DIR. Progress goes to a status file there, which /api/health and Settings read.

export const AUTO_MODEL = "base.en";

export type AutoDownloadOptions = {
  modelsDir: string;
  baseUrl?: string;
  name?: string;
  expectedSha1?: string;
  /** Wait before attempt n + 1 (n = 1, 2, …) after a failed one. */
  retryDelayMs?: (failures: number) => number;
  log?: Pick<typeof defaultLog, "info" | "warn" | "debug">;
  /** Called once the model is in place. */
  onReady?: (modelPath: string) => void;
};

export type AutoDownload = { stop(): Promise<void> };

const backoff = (failures: number) => Math.min(60 * 60_000, 30_000 * 2 ** (failures - 1));

/** Starts the background download when it is wanted (auto engine, no model, WHISPER_AUTO_DOWNLOAD), else null. */
export function startModelAutoDownloadIfNeeded(): AutoDownload | null {
  const config = env();
  if (config.TRANSCRIBE_ENGINE !== "auto" || !config.WHISPER_AUTO_DOWNLOAD || config.WHISPER_MODEL) return null;
  if (resolveWhisperModel({ MODELS_DIR: config.MODELS_DIR })) return null;
  return startModelAutoDownload({ modelsDir: path.resolve(config.MODELS_DIR), baseUrl: config.WHISPER_MODEL_BASE_URL });
}

export function startModelAutoDownload(options: AutoDownloadOptions): AutoDownload {
  const { modelsDir, name = AUTO_MODEL, retryDelayMs = backoff, log = defaultLog } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let status: ModelDownloadStatus = { model: name, pid: process.pid, data_dir: env().dataDir, state: "downloading", received_bytes: 0, total_bytes: null };
  let lastWrite = 0;
  let lastLoggedTenth = -1;

  const publish = async (next: Partial<ModelDownloadStatus>, force = true) => {
    status = { ...status, ...next };
    if (!force && Date.now() - lastWrite < 1000) return;
    lastWrite = Date.now();
    await writeDownloadStatus(modelsDir, status).catch(() => undefined);
  };

  const run = async () => {
    for (let failures = 0; !stopped; ) {
      await publish({ state: "downloading", retry_at: undefined, error: undefined });
      try {
        const result = await downloadWhisperModel({
          name,
          modelsDir,
          baseUrl: options.baseUrl ?? DEFAULT_MODEL_BASE_URL,
          expectedSha1: options.expectedSha1,
          onProgress(received, total) {
            void publish({ received_bytes: received, total_bytes: total }, false);
            const tenth = total ? Math.floor((received / total) * 10) : -1;
            if (tenth > lastLoggedTenth && tenth < 10) {
              lastLoggedTenth = tenth;
              log.info("downloading the accurate speech recognizer", { model: name, percent: tenth * 10 });
            }
          },
        });
        await writeDownloadStatus(modelsDir, null);
        log.info("the accurate speech recognizer is ready; new recordings use it", { model: name, path: result.path });
        options.onReady?.(result.path);
        return;
      } catch (err) {
        failures++;
        const delay = retryDelayMs(failures);
        const reason = err instanceof Error ? err.message : String(err);
        await publish({ state: "waiting", error: reason, retry_at: new Date(Date.now() + delay).toISOString() });
        if (failures === 1) {
          log.warn(
            `Using the basic speech recognizer for now: the accurate one (whisper ${name}) could not be downloaded. ` +
              `It is retried in the background; to get it yourself, run \`npm run model:download -- ${name}\` ` +
              `(or copy ggml-${name}.bin into ${modelsDir}).`,
            { model: name, reason },
          );
        } else {
          log.debug("model download failed again", { model: name, failures, reason, retry_in_ms: delay });
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, delay);
        });
      }
    }
  };

  const running = run().catch((err) => log.warn("model download stopped", { model: name, reason: String(err) }));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      if (status.state === "waiting") await running;
      await writeDownloadStatus(modelsDir, null);
    },
  };
}
