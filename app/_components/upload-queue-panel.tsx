"use client";

import Link from "next/link";
import { FileAudio, RotateCw, Trash2 } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { onQueueChange, type QueuedUpload } from "@/app/_lib/local-db.ts";
import { discardUpload, listUploads, nextDueIn, processQueue, recordingIdOf, retryUpload } from "@/app/_lib/upload-queue.ts";
import { Badge, IconButton } from "@/app/_ui/index.ts";
import list from "./upload-queue-panel.module.css";

const STATUS = {
  pending: { label: "Waiting to upload", tone: "warning" },
  uploading: { label: "Uploading", tone: "info" },
  done: { label: "Text ready", tone: "success" },
  failed: { label: "Could not be read", tone: "danger" },
} as const;

/** A recording's own name ("recording-2025-…Z.webm") says nothing to a person: show when it was made. */
function displayName(item: QueuedUpload): string {
  const when = new Date(item.createdAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return /^recording-\d{4}-/.test(item.fileName) ? `Voice note, ${when}` : item.fileName.replace(/-part-\d+(\.\w+)$/, "$1");
}

/** This phone's recent uploads, and the page-side triggers that drain the queue. */
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
    <section aria-labelledby="queue-heading" className={list.panel}>
      <h2 id="queue-heading">On this phone</h2>
      {!online && (
        // The page's banner already says so at length: one short line here, not a second warning.
        <p className="muted" data-testid="connectivity">
          Offline: uploads wait until you are back online.
        </p>
      )}
      {items.length === 0 ? (
        <p className="muted">Nothing waiting to upload.</p>
      ) : (
        <ul className={list.list} aria-label="Upload queue">
          {items.map((item) => (
            <li key={item.id} className={list.item} data-testid="upload-item" data-status={item.status}>
              <FileAudio size={22} aria-hidden="true" className={list.icon} />
              <div className={list.main}>
                <span className={list.name}>
                  {displayName(item)}
                  {item.parts > 1 && ` — part ${item.part} of ${item.parts}`}
                </span>
                <span className={list.meta}>
                  <Badge tone={STATUS[item.status].tone}>{STATUS[item.status].label}</Badge>
                  {item.error && item.status !== "done" && <span className="muted">{item.error}</span>}
                </span>
                <span className={list.links}>
                  {item.status === "done" && item.transcriptionId && (
                    <Link className={list.link} href={`/transcripts/${item.transcriptionId}`}>
                      {item.parts > 1 ? `Open part ${item.part}` : "Open note"}
                    </Link>
                  )}
                  {item.parts > 1 && item === items.find((i) => i.batchId === item.batchId) && (
                    <JoinedLink items={items.filter((i) => i.batchId === item.batchId)} />
                  )}
                </span>
              </div>
              {(item.status === "failed" || item.status === "pending") && (
                <IconButton
                  label={`Retry ${displayName(item)} now`}
                  icon={<RotateCw size={20} aria-hidden="true" />}
                  onClick={() => void retryUpload(item.id).then(() => processQueue({ owner, force: true }))}
                />
              )}
              {item.status !== "uploading" && (
                <IconButton
                  label={`${item.status === "done" ? "Remove" : "Discard"} ${displayName(item)}`}
                  icon={<Trash2 size={20} aria-hidden="true" />}
                  onClick={() => void discardUpload(item.id)}
                />
              )}
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
  return (
    <Link className={list.link} href={`/transcripts/recordings/${encodeURIComponent(recordingIdOf(items[0]))}`}>
      Open full note
    </Link>
  );
}
