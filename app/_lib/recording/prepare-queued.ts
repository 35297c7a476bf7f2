import { preprocessAudio } from "@/app/_lib/recording/preprocess.ts";
import { LARGEST_REQUEST_BYTES, listUploads, noteWaiting, replaceWithParts } from "@/app/_lib/recording/upload-queue.ts";
import type { QueuedUpload } from "@/app/_lib/local-db.ts";

// A recording too large to send as it is (a file shared into the app, which the service worker
// queues as it came; a file the audio tools could not convert when it was picked) waits in the
// queue marked `prepare`. Any page of the app converts it here, before the queue is sent: compact
// speech audio in parts of a minute or so (preprocess.ts), which take its place. No request is
// then larger than LARGEST_REQUEST_BYTES (issue 68: a Cloudflare Tunnel refuses bodies over
// 100 MB). A service worker cannot run the audio tools (they need a worker of their own), so the
// recording waits for a page; where converting fails, it stays, with the reason, and is tried again
// the next time a page opens. One tab converts at a time (a lock), so two tabs do not both do it.

const LOCK = "voicedraft-prepare-uploads";
const MB = 1_000_000;
/** Recordings this page could not convert: tried again on the next page load, not on every focus. */
const failedHere = new Set<string>();

/** Converts `owner`'s recordings waiting to be made smaller; answers how many now wait no more. */
export async function prepareQueuedUploads(owner: string): Promise<number> {
  const waiting = (await listUploads(owner)).filter((item) => item.prepare && item.blob && item.status === "pending" && !failedHere.has(item.id));
  if (!waiting.length) return 0;
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks) return prepare(waiting);
  return (await locks.request(LOCK, { ifAvailable: true }, (lock) => (lock ? prepare(waiting) : 0))) ?? 0;
}

async function prepare(items: QueuedUpload[]): Promise<number> {
  let prepared = 0;
  for (const item of items) {
    try {
      const parts = await preprocessAudio(item.blob!);
      const base = item.fileName.replace(/\.[^.]+$/, "");
      const uploads = parts.map((part, i) => ({ blob: part.blob, fileName: parts.length === 1 ? `${base}.ogg` : `${base}-part-${i + 1}.ogg`, mimeType: "audio/ogg" }));
      // A part that is still too large (hours of speech in a minute's part cannot happen, but a
      // converter's mistake must not send one): the recording waits, whole, with the reason.
      const largest = Math.max(...uploads.map((u) => u.blob.size));
      if (largest > LARGEST_REQUEST_BYTES) throw new Error(`a part came out at ${Math.round(largest / MB)} MB`);
      if ((await replaceWithParts(item, uploads)).length) prepared += 1;
    } catch (err) {
      console.warn("a recording too large to send as it is could not be converted", err);
      failedHere.add(item.id);
      const size = Math.round(item.blob!.size / MB);
      await noteWaiting(item.id, `Too large to send as it is (${size} MB), and it could not be made smaller on this phone this time. It stays here and is tried again when you open Voicedraft.`);
    }
  }
  return prepared;
}
