import path from "node:path";
import { chooseLocalModel } from "@/lib/writer/local/model-file.ts";
import { localModelDownloadProgress, type LocalModelDownloadProgress } from "@/lib/writer/local/model-download.ts";
import { localModelFailure, localModelState } from "@/lib/writer/local/runtime.ts";
import { recentWriting, whatItWrote, type RecentWriting } from "@/lib/writer/outcomes.ts";
import { modelWriterNow, noWriterReason } from "@/lib/writer/providers.ts";

// The writer as /api/health and Settings → Writing show it, both from here so they say the same:
// what its last tasks did (lib/writer/outcomes.ts), not what its settings promise; and the model on
// this machine: ready, failing, on its way (the launcher's download), waiting to try its download
// again, or not used, and why.

export type LocalWriterStatus = {
  state: "ready" | "failing" | "downloading" | "waiting" | "unavailable" | "off";
  /** The model's file name. */
  model: string | null;
  /** Why it does not write (failing, waiting, unavailable, off), or null. */
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
    const recent = failure ? null : recentWriting("local-model");
    if (recent?.state === "failed") return { state: "failing", model, reason: recent.reason, loaded: localModelState().loaded, download: null };
    return { state: failure ? "unavailable" : "ready", model, reason: failure, loaded: localModelState().loaded, download: null };
  }
  const download = choice.downloadable ? localModelDownloadProgress() : null;
  // A download that failed and waits to try again is not downloading (issue 69).
  if (download?.state === "waiting") return { state: "waiting", model: download.model, reason: download.error, loaded: false, download };
  const state = download ? "downloading" : choice.why === "off" ? "off" : "unavailable";
  return { state, model: download?.model ?? null, reason: choice.reason, loaded: false, download };
}

let onItsWay: { at: number; value: { state: "downloading" | "waiting"; percent: number | null } | null } | undefined;

/** The model on this machine while it is on its way (each post card says how far): read at most once a second. */
export function localModelOnItsWay(): { state: "downloading" | "waiting"; percent: number | null } | null {
  if (onItsWay && Date.now() - onItsWay.at < 1000) return onItsWay.value;
  const download = modelWriterNow() ? null : localWriterStatus().download;
  onItsWay = { at: Date.now(), value: download && { state: download.state, percent: download.percent } };
  return onItsWay.value;
}

/** What the writer's last tasks did, as health carries it (times in ISO). */
export type LastTasks = {
  state: RecentWriting["state"];
  notes: number;
  questions: number;
  reason: string | null;
  at: string | null;
};

export type WritingHealth = {
  written_by: "writer" | "local-model" | "offline";
  /** The writer's state in words, as Settings → Writing says it (times, where it has them, in `tried_at`/`retry_at`). */
  says: string;
  last_tasks: LastTasks;
  local_model: LocalWriterStatus;
};

/**
 * The writer's state in one sentence, without its subject ("wrote your last 3 notes"): what its
 * last tasks did when a model writes; else the model's download, or why no model writes.
 */
export function writingSays(by: "writer" | "local-model" | null, recent: RecentWriting, local: LocalWriterStatus): string {
  if (by && recent.state === "wrote") return `wrote ${whatItWrote(recent)}`;
  if (by && recent.state === "failed") return `could not write ${whatItWrote(recent)}: ${recent.reason}; writing without a model meanwhile`;
  if (by) return "has written nothing yet since the server started";
  const download = local.download;
  if (download?.state === "downloading") return download.percent === null ? "downloading" : `downloading, ${download.percent} %`;
  if (download?.state === "waiting") return `could not download: ${download.error ?? "the download failed"}`;
  return `writing without a model: ${noWriterReason() ?? "none is set up"}`;
}

/** /api/health's `writing`, and what Settings → Writing says: who is set to write, what its last tasks did, the model on this machine. */
export function writingHealth(): WritingHealth {
  const by = modelWriterNow();
  const recent = recentWriting(by ?? undefined);
  const local = localWriterStatus();
  const mine = by ? recent : { ...recent, state: "none" as const, notes: 0, questions: 0, reason: null, at: null };
  return {
    written_by: by ?? "offline",
    says: writingSays(by, mine, local),
    last_tasks: { state: mine.state, notes: mine.notes, questions: mine.questions, reason: mine.reason, at: mine.at?.toISOString() ?? null },
    local_model: local,
  };
}
