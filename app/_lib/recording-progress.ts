import { onQueueChange, type QueuedUpload } from "@/app/_lib/local-db.ts";
import { listUploads, recordingIdOf, UPLOAD_PROGRESS_EVENT, type UploadProgress } from "@/app/_lib/upload-queue.ts";
import { api, type Recording, type Transcription } from "@/app/_lib/api.ts";

// What happens to the recording just stopped, stage by stage, for the progress card. It lives
// outside React so it carries on when the user leaves the Record page (a toast then offers "Open").

export type Stage =
  | { kind: "saving" }
  | { kind: "preparing"; step: "loading" | "converting" | "splitting"; seconds: number }
  | { kind: "offline"; parts: number }
  | { kind: "waiting"; parts: number; error: string | null }
  | { kind: "uploading"; part: number; parts: number; loaded: number; total: number }
  | { kind: "transcribing"; part: number; parts: number }
  | { kind: "cleaning" }
  | { kind: "done"; href: string }
  | { kind: "failed"; message: string };

let current: Stage | null = null;
const listeners = new Set<() => void>();

function set(stage: Stage | null) {
  current = stage;
  for (const listener of listeners) listener();
}

export const progressStage = () => current;
export const clearProgress = () => set(null);
export function onProgress(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const reportStage = (stage: Stage) => set(stage);

const POLL_MS = 1500;
const noteHref = (items: QueuedUpload[]) =>
  items.length === 1 ? `/transcripts/${items[0].transcriptionId}` : `/transcripts/recordings/${encodeURIComponent(recordingIdOf(items[0]))}`;

/** Follows the queued parts of one recording until its text is ready (or it cannot be sent). */
export function trackUpload(owner: string, queued: QueuedUpload[]): void {
  const batchId = queued[0].batchId;
  const sent = new Map<string, UploadProgress>();
  let finished = false;
  let cleaning = false;

  const onBytes = (event: Event) => {
    const detail = (event as CustomEvent<UploadProgress>).detail;
    sent.set(detail.id, detail);
    void update();
  };
  const stopListening = () => {
    finished = true;
    unsubscribe();
    window.removeEventListener(UPLOAD_PROGRESS_EVENT, onBytes);
    window.removeEventListener("online", update);
    window.removeEventListener("offline", update);
  };

  async function update() {
    if (finished || cleaning) return;
    const items = (await listUploads(owner)).filter((i) => i.batchId === batchId).sort((a, b) => a.part - b.part);
    if (!items.length) return stopListening();
    const failed = items.find((i) => i.status === "failed");
    if (failed) {
      stopListening();
      return set({ kind: "failed", message: failed.error ?? "The server could not read this recording." });
    }
    if (items.every((i) => i.status === "done")) {
      cleaning = true;
      set({ kind: "cleaning" });
      await waitForCleanText(items);
      stopListening();
      return set({ kind: "done", href: noteHref(items) });
    }
    const next = items.find((i) => i.status !== "done")!;
    if (next.status === "uploading") {
      const bytes = sent.get(next.id);
      const total = bytes?.total || next.blob?.size || 0;
      if (bytes && bytes.loaded >= total) return set({ kind: "transcribing", part: next.part, parts: next.parts });
      return set({ kind: "uploading", part: next.part, parts: next.parts, loaded: bytes?.loaded ?? 0, total });
    }
    if (!navigator.onLine) return set({ kind: "offline", parts: items.length });
    set({ kind: "waiting", parts: items.length, error: next.error });
  }

  const unsubscribe = onQueueChange(() => void update());
  window.addEventListener(UPLOAD_PROGRESS_EVENT, onBytes);
  window.addEventListener("online", update);
  window.addEventListener("offline", update);
  void update();
}

/** The clean-up (optimization) runs after transcription, sometimes in the background: wait for it. */
async function waitForCleanText(items: QueuedUpload[]): Promise<void> {
  const busy = (status: string | null | undefined) => status === "pending" || status === "running";
  for (;;) {
    try {
      const status =
        items.length === 1
          ? (await api<Transcription>(`/api/v1/transcriptions/${encodeURIComponent(items[0].transcriptionId!)}`)).optimization?.status
          : (await api<Recording>(`/api/v1/recordings/${encodeURIComponent(recordingIdOf(items[0]))}`)).optimization?.status;
      if (!busy(status)) return;
    } catch {
      return; // the note page shows whatever state it is in
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

let cardShown = false;
/** The Record page says whether its progress card is on screen (then it opens the note itself). */
export const setCardShown = (shown: boolean) => void (cardShown = shown);
export const isCardShown = () => cardShown;
