import path from "node:path";
import { chooseLocalModel } from "@/lib/writer/local/model-file.ts";
import { localModelDownloadProgress, type LocalModelDownloadProgress } from "@/lib/writer/local/model-download.ts";
import { localModelFailure, localModelState } from "@/lib/writer/local/runtime.ts";
import { writerProvider } from "@/lib/writer/providers.ts";

// The model on this machine as /api/health and Settings → Writing show it: ready (in memory or
// not), on its way (the launcher's download), or not used, and why.

export type LocalWriterStatus = {
  state: "ready" | "downloading" | "unavailable" | "off";
  /** The model's file name. */
  model: string | null;
  /** Why it does not write (unavailable, off), or null. */
  reason: string | null;
  /** In memory now (it is loaded on first use and unloaded after WRITER_LOCAL_IDLE_MINUTES). */
  loaded: boolean;
  download: LocalModelDownloadProgress | null;
};

export function localWriterStatus(): LocalWriterStatus {
  const choice = chooseLocalModel();
  if (choice.path !== null) {
    const failure = localModelFailure(choice.path);
    const model = path.basename(choice.path);
    return { state: failure ? "unavailable" : "ready", model, reason: failure, loaded: localModelState().loaded, download: null };
  }
  const download = choice.downloadable ? localModelDownloadProgress() : null;
  const state = download ? "downloading" : choice.why === "off" ? "off" : "unavailable";
  return { state, model: download?.model ?? null, reason: choice.reason, loaded: false, download };
}

export type WritingHealth = {
  written_by: "writer" | "local-model" | "offline";
  local_model: LocalWriterStatus;
};

/** /api/health's `writing`: who writes now, and the model on this machine (its download, when under way). */
export function writingHealth(): WritingHealth {
  const provider = writerProvider();
  return { written_by: provider ? (provider.kind === "remote" ? "writer" : "local-model") : "offline", local_model: localWriterStatus() };
}
