"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { onQueueChange, type QueuedUpload } from "@/lib/web/local-db.ts";
import { discardUpload, listUploads, nextDueIn, processQueue, recordingIdOf, retryUpload } from "@/lib/web/upload-queue.ts";

const STATUS_LABEL = { pending: "Waiting to upload", uploading: "Uploading…", done: "Transcribed", failed: "Failed" } as const;

/** The queue as the user sees it, and the page-side triggers that drain it. */
export function UploadQueuePanel({ owner }: { owner: string }) {
  const [items, setItems] = useState<QueuedUpload[]>([]);
  const [online, setOnline] = useState(true);

  const refresh = useCallback(async () => setItems(await listUploads(owner)), [owner]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drain = async (force = false) => {
      clearTimeout(timer);
      await processQueue({ owner, force }).catch(() => 0);
      await refresh();
      const due = await nextDueIn(owner);
      if (due !== null) timer = setTimeout(() => void drain(), Math.max(1000, due));
    };
    const goOnline = () => {
      setOnline(true);
      void drain(true);
    };
    const goOffline = () => setOnline(false);
    const onFocus = () => void drain();
    const onVisible = () => document.visibilityState === "visible" && void drain();
    // Mirror the browser's connectivity and drain the queue once on arrival.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setOnline(navigator.onLine);
    void drain();
    const unsubscribe = onQueueChange(() => {
      void refresh();
    });
    const onEnqueued = () => void drain(true);
    window.addEventListener("online", goOnline);
    window.addEventListener("offline", goOffline);
    window.addEventListener("focus", onFocus);
    window.addEventListener("voicedraft:enqueued", onEnqueued);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      clearTimeout(timer);
      unsubscribe();
      window.removeEventListener("online", goOnline);
      window.removeEventListener("offline", goOffline);
      window.removeEventListener("focus", onFocus);
      window.removeEventListener("voicedraft:enqueued", onEnqueued);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [refresh, owner]);

  return (
    <section aria-labelledby="queue-heading">
      <h2 id="queue-heading">Uploads</h2>
      <p className="muted" aria-live="polite" data-testid="connectivity">
        {online ? "Online" : "Offline — recordings are kept on this device and upload when you are back online."}
      </p>
      {items.length === 0 ? (
        <p>Nothing queued.</p>
      ) : (
        <ul className="plain" aria-label="Upload queue">
          {items.map((item) => (
            <li key={item.id} className="card" data-testid="upload-item" data-status={item.status}>
              <div>
                {item.fileName}
                {item.parts > 1 && ` — part ${item.part} of ${item.parts}`}
              </div>
              <div className="status">{STATUS_LABEL[item.status]}</div>
              {item.error && item.status !== "done" && <div className="muted">{item.error}</div>}
              <div className="row">
                {item.status === "done" && item.transcriptionId && (
                  <Link href={`/transcripts/${item.transcriptionId}`}>{item.parts > 1 ? `Open part ${item.part}` : "Open transcript"}</Link>
                )}
                {item.parts > 1 && item === items.find((i) => i.batchId === item.batchId) && (
                  <JoinedLink items={items.filter((i) => i.batchId === item.batchId)} />
                )}
                {(item.status === "failed" || item.status === "pending") && (
                  <button type="button" className="secondary" onClick={() => void retryUpload(item.id).then(() => processQueue({ owner, force: true }))}>
                    Retry now
                  </button>
                )}
                {item.status !== "uploading" && (
                  <button
                    type="button"
                    className="danger"
                    onClick={() => void discardUpload(item.id)}
                    aria-label={`${item.status === "done" ? "Remove" : "Discard"} ${item.fileName}`}
                  >
                    {item.status === "done" ? "Remove" : "Discard"}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A split recording as the server joins it; offered once any part has arrived there. */
function JoinedLink({ items }: { items: QueuedUpload[] }) {
  if (!items.some((i) => i.status === "done")) return null;
  return <Link href={`/transcripts/recordings/${encodeURIComponent(recordingIdOf(items[0]))}`}>Open full transcript</Link>;
}
