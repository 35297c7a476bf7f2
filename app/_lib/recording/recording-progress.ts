import { onQueueChange, type QueuedUpload } from "@/app/_lib/local-db.ts";
import { listUploads, recordingIdOf, UPLOAD_PROGRESS_EVENT, type UploadProgress } from "@/app/_lib/recording/upload-queue.ts";

// What happens to the recording just stopped, stage by stage, for the progress card. It lives
// outside React so it carries on when the user leaves the Record page (a toast then offers "Open").

export type Stage =
  | { kind: "saving" }
  | { kind: "preparing"; step: "loading" | "converting" | "splitting"; seconds: number }
  | { kind: "offline"; parts: number }
  | { kind: "waiting"; parts: number; error: string | null }
  | { kind: "uploading"; part: number; parts: number; loaded: number; total: number }
  | { kind: "transcribing"; part: number; parts: number }
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

// Bytes sent of each upload in flight (pages only), for the card and the 'On this phone' list.
const bytesSent = new Map<string, UploadProgress>();
if (typeof window !== "undefined") {
  window.addEventListener(UPLOAD_PROGRESS_EVENT, (event) => {
    const detail = (event as CustomEvent<UploadProgress>).detail;
    bytesSent.set(detail.id, detail);
  });
}

/** Where the note of a recording lives: a one-part upload is its own note, more parts are joined. */
export const noteHref = (items: QueuedUpload[]) =>
  items.length === 1 && items[0].parts === 1
    ? `/transcripts/${items[0].transcriptionId}`
    : `/transcripts/recordings/${encodeURIComponent(recordingIdOf(items[0]))}`;

/**
 * Where the parts of one recording (its queued items) stand, in one stage. `parts` is 0 while
 * the recording is still going on (live upload): every part queued so far being text is then
 * not yet "done". Parts go up two at a time, so the first part not yet text is the one named.
 */
export function recordingStage(items: QueuedUpload[], online = typeof navigator === "undefined" || navigator.onLine): Stage | null {
  if (!items.length) return null;
  const sorted = [...items].sort((a, b) => a.part - b.part);
  const parts = sorted[0].parts;
  const failed = sorted.find((i) => i.status === "failed");
  if (failed) return { kind: "failed", message: failed.error ?? "The server could not read this recording." };
  if (parts > 0 && sorted.length >= parts && sorted.every((i) => i.status === "done")) return { kind: "done", href: noteHref(sorted) };
  const inFlight = sorted.filter((i) => i.status === "uploading");
  const sending = inFlight.find((i) => {
    const bytes = bytesSent.get(i.id);
    return !bytes || bytes.loaded < (bytes.total || i.blob?.size || 0);
  });
  if (sending) {
    const bytes = bytesSent.get(sending.id);
    return { kind: "uploading", part: sending.part, parts, loaded: bytes?.loaded ?? 0, total: bytes?.total || sending.blob?.size || 0 };
  }
  if (inFlight.length) return { kind: "transcribing", part: inFlight[0].part, parts };
  const waiting = sorted.find((i) => i.status === "pending");
  if (!waiting) return { kind: "transcribing", part: sorted.at(-1)!.part, parts }; // between two parts
  // Too large to send as it is: a page of the app makes it smaller first (prepare-queued.ts).
  if (waiting.prepare && !waiting.error) return { kind: "preparing", step: "converting", seconds: 0 };
  if (!online) return { kind: "offline", parts: parts || sorted.length };
  // Due now, online, nothing in its way: it is about to go (not a wait worth a word).
  if (!waiting.error && waiting.nextAttemptAt <= Date.now()) {
    return { kind: "uploading", part: waiting.part, parts, loaded: 0, total: waiting.blob?.size ?? 0 };
  }
  return { kind: "waiting", parts: parts || sorted.length, error: waiting.error };
}

/**
 * Follows the queued parts of one recording until all of them are text (or one cannot be sent),
 * then the note opens: its clean-up (optimization) goes on there, in the background, and the
 * note view says so and shows the cleaned text when it arrives.
 */
export function trackUpload(owner: string, queued: QueuedUpload[]): void {
  const batchId = queued[0].batchId;
  let finished = false;

  const stopListening = () => {
    finished = true;
    unsubscribe();
    window.removeEventListener(UPLOAD_PROGRESS_EVENT, update);
    window.removeEventListener("online", update);
    window.removeEventListener("offline", update);
  };

  async function update() {
    if (finished) return;
    const items = (await listUploads(owner)).filter((i) => i.batchId === batchId);
    if (finished) return;
    const stage = recordingStage(items);
    if (!stage) return stopListening();
    if (stage.kind === "done" || stage.kind === "failed") {
      stopListening();
      if (stage.kind === "done") performance.mark("voicedraft:text-ready");
    }
    set(stage);
  }

  const unsubscribe = onQueueChange(() => void update());
  window.addEventListener(UPLOAD_PROGRESS_EVENT, update);
  window.addEventListener("online", update);
  window.addEventListener("offline", update);
  void update();
}

let cardShown = false;
/** The Record page says whether its progress card is on screen (then it opens the note itself). */
export const setCardShown = (shown: boolean) => void (cardShown = shown);
export const isCardShown = () => cardShown;
