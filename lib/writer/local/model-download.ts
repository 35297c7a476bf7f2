import path from "node:path";
import { env } from "@/lib/env.ts";
import { log as defaultLog } from "@/lib/log.ts";
import { downloadVerified } from "@/lib/downloads/verified-download.ts";
import { downloadInBackground, type BackgroundDownload } from "@/lib/downloads/background-download.ts";
import { readDownloadStatus } from "@/lib/downloads/download-status.ts";
import { writerSettings } from "@/lib/writer/providers.ts";
import { chooseLocalModel, downloadedModelPath, localModelSource } from "@/lib/writer/local/model-file.ts";

// The local writer's model arrives as whisper's does: `npm start`'s launcher downloads it in the
// background on first start (resumable, checked against its pinned SHA-256, retried with a growing
// wait), while the offline rules write; the Next server picks the file up when it lands in
// MODELS_DIR. Progress goes to a status file of its own there, which /api/health and Settings →
// Writing read.

export const WRITER_DOWNLOAD_STATUS = ".writer-download.json";

export type LocalModelDownloadOptions = {
  url: string;
  sha256: string;
  destination: string;
  retryDelayMs?: (failures: number) => number;
  log?: Pick<typeof defaultLog, "info" | "warn" | "debug">;
  onReady?: (modelPath: string) => void;
};

export type LocalModelDownload = BackgroundDownload;

/** Starts the download when it is wanted (no writer named, WRITER_LOCAL=auto, no model yet, WRITER_AUTO_DOWNLOAD), else null. */
export function startLocalModelDownloadIfNeeded(): LocalModelDownload | null {
  const config = env();
  if (!config.WRITER_AUTO_DOWNLOAD || writerSettings()) return null;
  const choice = chooseLocalModel(config);
  if (choice.path !== null || !choice.downloadable) return null;
  const source = localModelSource(config);
  return startLocalModelDownload({ url: source.url, sha256: source.sha256, destination: downloadedModelPath(config) });
}

export function startLocalModelDownload(options: LocalModelDownloadOptions): LocalModelDownload {
  const { url, sha256, destination, retryDelayMs, log = defaultLog } = options;
  const modelsDir = path.dirname(destination);
  const model = path.basename(destination);
  return downloadInBackground({
    model,
    modelsDir,
    statusFile: WRITER_DOWNLOAD_STATUS,
    retryDelayMs,
    log,
    firstFailure:
      `Writing with the offline rules for now: the model on this machine (${model}) could not be downloaded. ` +
      `It is retried in the background; or copy it into ${modelsDir}, or set WRITER_LOCAL_MODEL to a .gguf file.`,
    attempt: async (onProgress) => {
      const result = await downloadVerified({
        url,
        destination,
        algorithm: "sha256",
        expected: sha256,
        byHand: `Download it on a machine with internet access and copy it to ${destination}, or set WRITER_LOCAL_MODEL to a .gguf file.`,
        onProgress,
      });
      log.info("the writing model on this machine is ready; posts and insights use it", { model, path: result.path });
      return result.path;
    },
    onReady: options.onReady,
  });
}

export type LocalModelDownloadProgress = {
  model: string;
  state: "downloading" | "waiting";
  received_bytes: number;
  total_bytes: number | null;
  percent: number | null;
  retry_at: string | null;
  /** When its last attempt failed (waiting). */
  failed_at: string | null;
  error: string | null;
};

/** This server's download of the local writer's model, when under way (for /api/health and Settings). */
export function localModelDownloadProgress(): LocalModelDownloadProgress | null {
  const status = readDownloadStatus(path.dirname(downloadedModelPath()), env().dataDir, WRITER_DOWNLOAD_STATUS);
  if (!status) return null;
  return {
    model: status.model,
    state: status.state,
    received_bytes: status.received_bytes,
    total_bytes: status.total_bytes,
    percent: status.total_bytes ? Math.floor((status.received_bytes / status.total_bytes) * 100) : null,
    retry_at: status.retry_at ?? null,
    failed_at: status.failed_at ?? null,
    error: status.error ?? null,
  };
}
