import path from "node:path";
import { env } from "@/lib/env.ts";
import { log as defaultLog } from "@/lib/log.ts";
import { downloadInBackground, type BackgroundDownload } from "@/lib/downloads/background-download.ts";
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

export type AutoDownload = BackgroundDownload;

/** Starts the background download when it is wanted (auto engine, no model, WHISPER_AUTO_DOWNLOAD), else null. */
export function startModelAutoDownloadIfNeeded(): AutoDownload | null {
  const config = env();
  if (config.TRANSCRIBE_ENGINE !== "auto" || !config.WHISPER_AUTO_DOWNLOAD || config.WHISPER_MODEL) return null;
  if (resolveWhisperModel({ MODELS_DIR: config.MODELS_DIR })) return null;
  return startModelAutoDownload({ modelsDir: path.resolve(config.MODELS_DIR), baseUrl: config.WHISPER_MODEL_BASE_URL });
}

export function startModelAutoDownload(options: AutoDownloadOptions): AutoDownload {
  const { modelsDir, name = AUTO_MODEL, retryDelayMs, log = defaultLog } = options;
  let lastLoggedTenth = -1;
  return downloadInBackground({
    model: name,
    modelsDir,
    retryDelayMs,
    log,
    firstFailure:
      `Using the basic speech recognizer for now: the accurate one (whisper ${name}) could not be downloaded. ` +
      `It is retried in the background; to get it yourself, run \`npm run model:download -- ${name}\` ` +
      `(or copy ggml-${name}.bin into ${modelsDir}).`,
    attempt: async (onProgress) => {
      const result = await downloadWhisperModel({
        name,
        modelsDir,
        baseUrl: options.baseUrl ?? DEFAULT_MODEL_BASE_URL,
        expectedSha1: options.expectedSha1,
        onProgress(received, total) {
          onProgress(received, total);
          const tenth = total ? Math.floor((received / total) * 10) : -1;
          if (tenth > lastLoggedTenth && tenth < 10) {
            lastLoggedTenth = tenth;
            log.info("downloading the accurate speech recognizer", { model: name, percent: tenth * 10 });
          }
        },
      });
      log.info("the accurate speech recognizer is ready; new recordings use it", { model: name, path: result.path });
      return result.path;
    },
    onReady: options.onReady,
  });
}
