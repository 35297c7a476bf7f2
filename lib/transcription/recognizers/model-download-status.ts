import { readFileSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

// The background model download runs in the launcher; the Next server reads its progress from
// this file in MODELS_DIR (written whole, then renamed, so a reader never sees half of it).

export type ModelDownloadStatus = {
  model: string;
  pid: number;
  /** downloading now, or waiting to retry after a failure (offline, interrupted). */
  state: "downloading" | "waiting";
  received_bytes: number;
  total_bytes: number | null;
  retry_at?: string;
  error?: string;
};

const STATUS_FILE = ".auto-download.json";

export async function writeDownloadStatus(modelsDir: string, status: ModelDownloadStatus | null): Promise<void> {
  const file = path.join(modelsDir, STATUS_FILE);
  if (!status) return rm(file, { force: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(status));
  await rename(temporary, file);
}

/** The download in progress, or null (none, or its process is gone). */
export function readDownloadStatus(modelsDir: string): ModelDownloadStatus | null {
  try {
    const status = JSON.parse(readFileSync(path.join(modelsDir, STATUS_FILE), "utf8")) as ModelDownloadStatus;
    process.kill(status.pid, 0);
    return status;
  } catch {
    return null;
  }
}
