"use client";

import { useEffect } from "react";
import { rememberOwner } from "@/app/_lib/owner.ts";
import { recoverInterruptedRecordings } from "@/app/_lib/recording/recorder.ts";
import { prepareQueuedUploads } from "@/app/_lib/recording/prepare-queued.ts";
import { nextDueIn, processQueue } from "@/app/_lib/recording/upload-queue.ts";
import { whenIdle } from "@/app/_lib/idle.ts";

/**
 * Sends this phone's queued recordings from every page of the app, not only from Record (and makes
 * those too large to send as they are smaller first, prepare-queued.ts): on
 * opening, on coming back online or to the foreground, when a recording is queued, and when a
 * retry falls due. The queue lock (navigator.locks) makes one tab, or the service worker's
 * Background Sync, the only uploader at a time; Idempotency-Keys make a repeat harmless.
 */
export function UploadSync({ owner }: { owner: string }) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const drain = async (force = false) => {
      clearTimeout(timer);
      // A recording too large to send as it is is made smaller first, beside the rest being sent,
      // and again after: sending found one (a live recording the server would not take live).
      const prepare = () =>
        void prepareQueuedUploads(owner)
          .then((prepared) => void (!stopped && prepared > 0 && drain(true)))
          .catch(() => undefined);
      prepare();
      await processQueue({ owner, force }).catch(() => 0);
      prepare();
      const due = await nextDueIn(owner).catch(() => null);
      if (!stopped && due !== null) timer = setTimeout(() => void drain(), Math.max(1000, due));
    };
    const now = () => void drain(true);
    const soon = () => void drain();
    const onVisible = () => document.visibilityState === "visible" && soon();
    // After the first paint (opening the phone's database and reading the queue can wait that long).
    const cancel = whenIdle(() => {
      void rememberOwner(owner);
      // A recording cut off by a closed page is finished and queued on the next open, whatever the page.
      void recoverInterruptedRecordings(owner)
        .catch(() => 0)
        .then(() => drain());
    });
    window.addEventListener("online", now);
    window.addEventListener("voicedraft:enqueued", now);
    window.addEventListener("focus", soon);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      cancel();
      clearTimeout(timer);
      window.removeEventListener("online", now);
      window.removeEventListener("voicedraft:enqueued", now);
      window.removeEventListener("focus", soon);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [owner]);
  return null;
}
