import { announceQueueChange, localDb, onQueueChange, type QueuedUpload } from "@/app/_lib/local-db.ts";
import { finishLiveUpload } from "@/app/_lib/recording/live-recording.ts";

// The offline upload queue. Every recording (or each of its parts) is written here before any
// upload is tried; processQueue sends what is due, two items at a time, from whichever context
// holds the queue lock (a tab, or the service worker on Background Sync).

export const SYNC_TAG = "voicedraft-upload-queue";
const LOCK = "voicedraft-upload-queue";
const BACKOFF_BASE_MS = 2_000;
const BACKOFF_MAX_MS = 5 * 60_000;

export type NewUpload = { blob: Blob; fileName: string; mimeType: string };

/**
 * No request the app sends is larger than this: a Cloudflare Tunnel refuses bodies over 100 MB,
 * other proxies less (docs/phone.md). A recording over it is never sent whole; it waits in the
 * queue until a page of the app has converted it to compact parts (prepare-queued.ts).
 */
export const LARGEST_REQUEST_BYTES = 90_000_000;

const RECORDING_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The recording_id of a queued item: the server groups every upload with the same one. */
export const recordingIdOf = (item: QueuedUpload): string => item.recordingId ?? item.batchId;

type Placement = Pick<QueuedUpload, "id" | "batchId" | "recordingId" | "part" | "parts" | "live">;

/** A new pending item; its Idempotency-Key is made from its batch and part, so a part queued again is sent once. */
function newItem(owner: string, upload: NewUpload, at: Placement): QueuedUpload {
  const now = Date.now();
  return {
    ...at,
    owner,
    createdAt: now,
    fileName: upload.fileName,
    mimeType: upload.mimeType,
    blob: upload.blob,
    // A live recording goes in appends of a few MB, the server holding most of it already; only
    // if the server will not take it live does it wait to be made smaller (send()).
    ...(!at.live && upload.blob.size > LARGEST_REQUEST_BYTES ? { prepare: true } : {}),
    idempotencyKey: `vd-upload-${at.batchId}-${at.part}`,
    status: "pending",
    attempts: 0,
    nextAttemptAt: now,
    error: null,
    transcriptionId: null,
  };
}

/**
 * Queues the parts of one recording, in order, in one transaction. `localRecordingId` (the
 * recorder's id) becomes the server's recording_id when the API accepts it as one.
 */
export async function enqueueUploads(owner: string, parts: NewUpload[], localRecordingId?: string): Promise<QueuedUpload[]> {
  const batchId = crypto.randomUUID();
  const recordingId = localRecordingId && RECORDING_ID.test(localRecordingId) ? localRecordingId : batchId;
  const items = parts.map((p, i) =>
    newItem(owner, p, { id: parts.length === 1 ? batchId : `${batchId}-${i + 1}`, batchId, recordingId, part: i + 1, parts: parts.length }),
  );
  const db = await localDb();
  const tx = db.transaction("uploads", "readwrite");
  await Promise.all([...items.map((item) => tx.store.put(item)), tx.done]);
  announceQueueChange();
  void requestBackgroundSync(); // not awaited: `ready` never settles on a page without a service worker
  return items;
}

/**
 * Live upload: one part of a recording still going on, queued (and sent) as soon as it is cut.
 * Every part shares the recording's id as its batch; `parts` stays 0 (not known) until
 * finishRecordingParts. The id and Idempotency-Key are made from the recording and part, so a
 * part queued twice (a retried cut, a recovery) is one item and one transcription.
 */
export async function enqueuePart(owner: string, recordingId: string, part: number, upload: NewUpload): Promise<QueuedUpload> {
  return enqueueOnce(newItem(owner, upload, { id: `${recordingId}-${part}`, batchId: recordingId, recordingId, part, parts: 0 }));
}

/** Queues `item` unless an item with its id is queued already (then that one is answered). */
async function enqueueOnce(item: QueuedUpload): Promise<QueuedUpload> {
  const db = await localDb();
  const tx = db.transaction("uploads", "readwrite");
  const existing = await tx.store.get(item.id);
  if (!existing) await tx.store.put(item);
  await tx.done;
  announceQueueChange();
  void requestBackgroundSync();
  return existing ?? item;
}

/**
 * A live recording at Stop: the whole of it, queued before anything else is tried, so nothing is
 * lost; sending it sends only the bytes the server does not hold yet, then finishes it.
 */
export async function enqueueLiveRecording(owner: string, recordingId: string, upload: NewUpload, recordedAt: number): Promise<QueuedUpload[]> {
  const item = { ...newItem(owner, upload, { id: recordingId, batchId: recordingId, recordingId, part: 1, parts: 1, live: true }), createdAt: recordedAt };
  return [await enqueueOnce(item)];
}

/** The recording stopped: every one of its parts learns how many there are. */
export async function finishRecordingParts(recordingId: string, parts: number): Promise<QueuedUpload[]> {
  const db = await localDb();
  const tx = db.transaction("uploads", "readwrite");
  const items = (await tx.store.getAll()).filter((item) => item.batchId === recordingId);
  const updated = items.map((item) => ({ ...item, parts }));
  await Promise.all([...updated.map((item) => tx.store.put(item)), tx.done]);
  announceQueueChange();
  return updated.sort((a, b) => a.part - b.part);
}

/**
 * A recording too large to send as it is, converted on this phone: its parts take its place in one
 * transaction (same recording, a part each, the time it was recorded), unless it is gone meanwhile
 * (discarded, or converted by another tab). Answers the new items, or none.
 */
export async function replaceWithParts(item: QueuedUpload, parts: NewUpload[]): Promise<QueuedUpload[]> {
  const db = await localDb();
  const tx = db.transaction("uploads", "readwrite");
  const current = await tx.store.get(item.id);
  if (!current?.prepare || !parts.length) {
    await tx.done;
    return [];
  }
  const recordingId = recordingIdOf(current);
  const items = parts.map((p, i) => ({
    ...newItem(current.owner, p, { id: `${current.batchId}-part-${i + 1}`, batchId: current.batchId, recordingId, part: i + 1, parts: parts.length }),
    createdAt: current.createdAt,
  }));
  await Promise.all([tx.store.delete(current.id), ...items.map((next) => tx.store.put(next)), tx.done]);
  announceQueueChange();
  void requestBackgroundSync();
  return items;
}

/** Says why a recording waits in the queue (its conversion failed), without sending it. */
export async function noteWaiting(id: string, error: string): Promise<void> {
  await update(id, { error });
}

export async function listUploads(owner: string): Promise<QueuedUpload[]> {
  const db = await localDb();
  return (await db.getAll("uploads")).filter((item) => item.owner === owner).sort((a, b) => b.createdAt - a.createdAt || a.part - b.part);
}

async function update(id: string, change: Partial<QueuedUpload>): Promise<void> {
  const db = await localDb();
  const tx = db.transaction("uploads", "readwrite");
  const item = await tx.store.get(id);
  if (item) await tx.store.put({ ...item, ...change });
  await tx.done;
  announceQueueChange();
}

/** Every part of one recording that did not go up is tried again now (same ids, same Idempotency-Keys). */
export async function retryRecording(batchId: string): Promise<void> {
  const db = await localDb();
  const tx = db.transaction("uploads", "readwrite");
  const items = (await tx.store.getAll()).filter((item) => item.batchId === batchId && (item.status === "failed" || item.status === "pending"));
  await Promise.all([...items.map((item) => tx.store.put({ ...item, status: "pending", nextAttemptAt: Date.now(), error: null })), tx.done]);
  announceQueueChange();
}

/** Removes a recording's parts from this phone (not one being sent right now). */
export async function discardRecording(batchId: string): Promise<void> {
  const db = await localDb();
  const tx = db.transaction("uploads", "readwrite");
  const items = (await tx.store.getAll()).filter((item) => item.batchId === batchId && item.status !== "uploading");
  await Promise.all([...items.map((item) => tx.store.delete(item.id)), tx.done]);
  announceQueueChange();
}

async function requestBackgroundSync(): Promise<void> {
  try {
    const registration = await navigator.serviceWorker?.ready;
    const sync = (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })?.sync;
    await sync?.register(SYNC_TAG);
  } catch {
    // No Background Sync (Safari, Firefox): the online/focus triggers of the page do the work.
  }
}

type UploadOutcome =
  | { status: "done"; transcriptionId: string }
  | { status: "failed"; error: string }
  | { status: "retry"; error: string }
  /** Too large to send whole: it waits to be made smaller on this phone (prepare-queued.ts). */
  | { status: "prepare" };

/** Bytes sent of the upload in flight, for the progress card (pages only: a service worker has no XHR). */
export type UploadProgress = { id: string; loaded: number; total: number };
export const UPLOAD_PROGRESS_EVENT = "voicedraft:upload-progress";

type Reply = { status: number; body: { id?: string; error?: { code: string; message: string } } | null };

function post(item: QueuedUpload, form: FormData): Promise<Reply> {
  const headers = { "Idempotency-Key": item.idempotencyKey };
  if (typeof XMLHttpRequest === "undefined") {
    return fetch("/transcribe", { method: "POST", body: form, credentials: "same-origin", headers }).then(async (res) => ({
      status: res.status,
      body: await res.json().catch(() => null),
    }));
  }
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/transcribe");
    xhr.setRequestHeader("Idempotency-Key", item.idempotencyKey);
    xhr.responseType = "json";
    const announce = (loaded: number, total: number) => announceProgress(item, loaded, total);
    xhr.upload.onprogress = (e) => announce(e.loaded, e.lengthComputable ? e.total : item.blob?.size ?? 0);
    xhr.upload.onload = () => announce(item.blob?.size ?? 1, item.blob?.size ?? 1);
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
    xhr.onerror = () => reject(new Error("network"));
    xhr.send(form);
  });
}

function announceProgress(item: QueuedUpload, loaded: number, total: number): void {
  if (typeof window === "undefined") return; // a service worker shows no progress card
  window.dispatchEvent(new CustomEvent<UploadProgress>(UPLOAD_PROGRESS_EVENT, { detail: { id: item.id, loaded, total } }));
}

async function send(item: QueuedUpload): Promise<UploadOutcome> {
  if (item.live) {
    const outcome = await finishLiveUpload(recordingIdOf(item), item.blob!, item.createdAt, (loaded, total) => announceProgress(item, loaded, total));
    // Not a format the server can take live: the whole file goes the usual way, or, when it is
    // larger than any request may be (hours of a phone's own format), in parts made on this phone.
    if (outcome.status !== "whole") return outcome;
    if (item.blob!.size > LARGEST_REQUEST_BYTES) return { status: "prepare" };
  }
  const form = new FormData();
  form.append("recording_id", recordingIdOf(item));
  form.append("recording_part", String(item.part - 1));
  // When it was recorded: a note sent later (offline, a long queue) is listed at that time.
  form.append("recorded_at", new Date(item.createdAt).toISOString());
  form.append("audio", new File([item.blob!], item.fileName, { type: item.mimeType }));
  let reply: Reply;
  try {
    reply = await post(item, form);
  } catch {
    return { status: "retry", error: "No connection; will retry." };
  }
  const { status, body } = reply;
  if (status >= 200 && status < 300 && body?.id) return { status: "done", transcriptionId: body.id };
  const message = body?.error?.message ?? `The server answered ${status}.`;
  // Signed out, rate limited or the server unwell: worth another try. Anything else is about this audio.
  if (status === 0 || status === 401 || status === 429 || status >= 500) return { status: "retry", error: message };
  return { status: "failed", error: message };
}

/** How many uploads go at once: a part recorded earlier must not hold up the last one behind it. */
export const UPLOADS_IN_FLIGHT = 2;

/**
 * Uploads every due item of `owner` (the signed-in user), up to UPLOADS_IN_FLIGHT at a time,
 * oldest first (a recording's parts in order). Parts queued while this runs (live upload) are
 * picked up at once by a free lane. `force` ignores the backoff (the device just came back online
 * or the user pressed retry). Each item is tried at most once per call. Returns how many items
 * were uploaded by this call.
 */
export async function processQueue({ owner, force = false }: { owner: string; force?: boolean }): Promise<number> {
  if (typeof navigator !== "undefined" && navigator.onLine === false) return 0;
  const run = async () => {
    const db = await localDb();
    // Whoever holds the lock is the only uploader, so an "uploading" item found now was cut off.
    for (const item of await db.getAllFromIndex("uploads", "byStatus", "uploading")) await update(item.id, { status: "pending" });
    const tried = new Set<string>();
    let uploaded = 0;
    let halted = false; // the network or the server is down: the rest waits too
    let busy = 0;
    // A lane with nothing to do waits for the queue to change (a new part) while another one works.
    let wake = () => {};
    let changed = new Promise<void>((resolve) => (wake = resolve));
    const poke = () => {
      const resolve = wake;
      changed = new Promise<void>((r) => (wake = r));
      resolve();
    };
    const unsubscribe = onQueueChange(poke);

    const claim = async (): Promise<QueuedUpload | undefined> => {
      const pending = await db.getAllFromIndex("uploads", "byStatus", "pending");
      // Synchronous from here: two lanes never claim the same item.
      const next = pending
        .filter((item) => item.owner === owner && item.blob && !item.prepare && !tried.has(item.id))
        .filter((item) => force || item.nextAttemptAt <= Date.now())
        .sort((a, b) => a.createdAt - b.createdAt || a.part - b.part)[0];
      if (next) tried.add(next.id);
      return next;
    };

    const lane = async () => {
      while (!halted) {
        const item = await claim();
        if (!item) {
          if (busy === 0) return;
          await changed;
          continue;
        }
        busy += 1;
        try {
          await update(item.id, { status: "uploading", attempts: item.attempts + 1 });
          const outcome = await send(item);
          if (outcome.status === "done") {
            await update(item.id, { status: "done", transcriptionId: outcome.transcriptionId, blob: null, error: null });
            uploaded += 1;
          } else if (outcome.status === "prepare") {
            await update(item.id, { status: "pending", prepare: true, error: null });
          } else if (outcome.status === "failed") {
            await update(item.id, { status: "failed", error: outcome.error });
          } else {
            const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** item.attempts);
            await update(item.id, { status: "pending", error: outcome.error, nextAttemptAt: Date.now() + delay });
            halted = true;
          }
        } finally {
          busy -= 1;
          poke();
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: UPLOADS_IN_FLIGHT }, lane));
    } finally {
      unsubscribe();
    }
    return uploaded;
  };
  if (typeof navigator !== "undefined" && navigator.locks) {
    return navigator.locks.request(LOCK, { ifAvailable: true }, (lock) => (lock ? run() : 0));
  }
  return run();
}

/** When the next backed-off item is due (ms from now), or null when nothing is waiting. */
export async function nextDueIn(owner: string): Promise<number | null> {
  const db = await localDb();
  // A recording waiting to be converted is not due: a page converts it when one is open.
  const pending = (await db.getAllFromIndex("uploads", "byStatus", "pending")).filter((item) => item.owner === owner && !item.prepare);
  if (!pending.length) return null;
  return Math.max(0, Math.min(...pending.map((p) => p.nextAttemptAt)) - Date.now());
}
