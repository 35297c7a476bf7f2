import { readFileSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { env } from "@/lib/env.ts";

// The background model downloads (whisper's, the local writer's) run in the launcher; the Next
// server reads their progress from a status file in MODELS_DIR, one per model kind (written whole, then renamed, so a reader never sees half of it).
// MODELS_DIR may be shared by servers of other DATA_DIRs, and a pid outlives its process in the
// file: a server reports only the download of its own launcher (its parent process, or itself)
// for its own DATA_DIR. (Issue 44: /api/health reported another server's download.)

export type ModelDownloadStatus = {
  model: string;
  /** The process downloading: the launcher of the server that reports it. */
  pid: number;
  /** The DATA_DIR (resolved) of that launcher. */
  data_dir: string;
  /** downloading now, or waiting to retry after a failure (offline, interrupted). */
  state: "downloading" | "waiting";
  received_bytes: number;
  total_bytes: number | null;
  retry_at?: string;
  /** When the last attempt failed (state waiting). */
  failed_at?: string;
  error?: string;
};

const STATUS_FILE = ".auto-download.json";

/** `name`: the status file (the recognizer's by default; the local writer's model has its own). */
export async function writeDownloadStatus(modelsDir: string, status: ModelDownloadStatus | null, name = STATUS_FILE): Promise<void> {
  const file = path.join(modelsDir, name);
  if (!status) return rm(file, { force: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(status));
  await rename(temporary, file);
}

/** This server's download in progress, or null (none, another server's, or its process is gone). */
export function readDownloadStatus(modelsDir: string, dataDir = env().dataDir, name = STATUS_FILE): ModelDownloadStatus | null {
  try {
    const status = JSON.parse(readFileSync(path.join(modelsDir, name), "utf8")) as ModelDownloadStatus;
    if (status.data_dir !== dataDir || (status.pid !== process.pid && status.pid !== process.ppid)) return null;
    process.kill(status.pid, 0);
    return status;
  } catch {
    return null;
  }
}
