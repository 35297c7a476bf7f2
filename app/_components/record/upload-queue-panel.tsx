"use client";

import Link from "next/link";
import { FileAudio, Play, RotateCw, Square, Trash2 } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { onQueueChange, type QueuedUpload } from "@/app/_lib/local-db.ts";
import { discardRecording, listUploads, processQueue, retryRecording, UPLOAD_PROGRESS_EVENT } from "@/app/_lib/recording/upload-queue.ts";
import { noteHref, recordingStage } from "@/app/_lib/recording/recording-progress.ts";
import { Badge, IconButton, ProgressBar } from "@/app/_ui/index.ts";
import list from "./upload-queue-panel.module.css";

type Tone = "warning" | "info" | "success" | "danger";
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;

/** A recording's own name ("recording-2025-…Z.webm") says nothing to a person: show when it was made. */
function displayName(item: QueuedUpload): string {
  const when = new Date(item.createdAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return /^recording-\d{4}-/.test(item.fileName) ? `Voice note, ${when}` : item.fileName.replace(/-part-\d+(\.\w+)$/, "$1");
}

/** The queue's items as recordings: the parts of one recording (one batch) together, in order, newest recording first. */
function byRecording(items: QueuedUpload[]): QueuedUpload[][] {
  const groups = new Map<string, QueuedUpload[]>();
  for (const item of items) groups.set(item.batchId, [...(groups.get(item.batchId) ?? []), item]);
  return [...groups.values()]
    .map((parts) => parts.sort((a, b) => a.part - b.part))
    .sort((a, b) => Math.max(...b.map((i) => i.createdAt)) - Math.max(...a.map((i) => i.createdAt)));
}

const SMALLER = "Making it smaller";
type Row = { status: QueuedUpload["status"]; badge: string; tone: Tone; detail: string | null; value: number | null };

/** One recording in plain words: where it stands, and how far its parts got. */
function describe(parts: QueuedUpload[], online: boolean): Row {
  const total = parts[0].parts; // 0 while it is still being recorded
  const done = parts.filter((p) => p.status === "done").length;
  const multi = total > 1 || (total === 0 && parts.length > 0);
  const value = multi ? done / Math.max(total, parts.length) : null;
  const of = (part: number) => (total > 1 ? `part ${part} of ${total}` : total === 0 ? `part ${part}` : "");
  const stage = recordingStage(parts, online);
  const recording = total === 0 && !parts.some((p) => p.status === "uploading" || p.status === "pending" || p.status === "failed");
  if (recording) {
    return { status: "done", badge: "Recording", tone: "info", detail: `${done} ${done === 1 ? "part" : "parts"} already text; the rest follows when you stop.`, value: null };
  }
  switch (stage?.kind) {
    case "failed": {
      const part = parts.find((p) => p.status === "failed")!;
      return { status: "failed", badge: "Could not be read", tone: "danger", detail: multi ? `Part ${part.part}: ${stage.message}` : stage.message, value };
    }
    case "done":
      return { status: "done", badge: "Text ready", tone: "success", detail: multi ? `${total} parts` : null, value: null };
    case "uploading": {
      const bytes = stage.total ? ` · ${mb(stage.loaded)} of ${mb(stage.total)}` : "";
      return { status: "uploading", badge: "Uploading", tone: "info", detail: `Uploading${multi ? ` ${of(stage.part)}` : ""}${bytes}`, value };
    }
    case "preparing":
      // Too large to send as it is: a page of the app is converting it (prepare-queued.ts).
      return { status: "pending", badge: SMALLER, tone: "info", detail: "Too large to send as it is: made smaller on this phone first.", value: null };
    case "transcribing":
      return { status: "uploading", badge: "Turning into text", tone: "info", detail: multi ? `Turning ${of(stage.part)} into text` : "Turning speech into text", value };
    case "offline":
    case "waiting": {
      const progress = multi ? `${done} of ${total || parts.length} parts uploaded` : null;
      const error = stage.kind === "waiting" ? stage.error : null;
      return { status: "pending", badge: "Waiting to upload", tone: "warning", detail: [progress, error].filter(Boolean).join(" · ") || null, value };
    }
    default:
      return { status: "pending", badge: "Waiting to upload", tone: "warning", detail: null, value };
  }
}

/**
 * This phone's recent recordings (one row each, their parts as progress). `waitingOnly` (Notes):
 * only those not yet text (waiting, uploading, recording, failed), and nothing at all when none.
 */
export function UploadQueuePanel({ owner, waitingOnly = false }: { owner: string; waitingOnly?: boolean }) {
  const [items, setItems] = useState<QueuedUpload[]>([]);
  const [online, setOnline] = useState(true);
  const [, setBytesTick] = useState(0);

  const refresh = useCallback(async () => setItems(await listUploads(owner)), [owner]);

  // The queue itself is drained from every page (UploadSync in the app frame); this shows it.
  useEffect(() => {
    const goOnline = () => setOnline(true);
    const goOffline = () => setOnline(false);
    const onBytes = () => setBytesTick((n) => n + 1);
    // Mirror the browser's connectivity.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setOnline(navigator.onLine);
    void refresh();
    const unsubscribe = onQueueChange(() => {
      void refresh();
    });
    window.addEventListener("online", goOnline);
    window.addEventListener("offline", goOffline);
    window.addEventListener(UPLOAD_PROGRESS_EVENT, onBytes);
    return () => {
      unsubscribe();
      window.removeEventListener("online", goOnline);
      window.removeEventListener("offline", goOffline);
      window.removeEventListener(UPLOAD_PROGRESS_EVENT, onBytes);
    };
  }, [refresh]);

  const recordings = byRecording(items).filter((parts) => !waitingOnly || describe(parts, online).badge !== "Text ready");
  if (waitingOnly && recordings.length === 0) return null;
  return (
    <section aria-labelledby="queue-heading" className={`${list.panel} ${waitingOnly ? list.top : ""}`} data-testid={waitingOnly ? "notes-waiting" : undefined}>
      <h2 id="queue-heading">{waitingOnly ? "Waiting on this phone" : "On this phone"}</h2>
      {!online && (
        // The page's banner already says so at length: one short line here, not a second warning.
        <p className="muted" data-testid="connectivity">
          Offline: uploads wait until you are back online.
        </p>
      )}
      {recordings.length === 0 ? (
        <p className="muted">Nothing waiting to upload.</p>
      ) : (
        <ul className={list.list} aria-label="Upload queue">
          {recordings.map((parts) => {
            const first = parts[0];
            const name = displayName(first);
            const row = describe(parts, online);
            const anyDone = parts.some((p) => p.status === "done");
            const sending = parts.some((p) => p.status === "uploading");
            return (
              <li key={first.batchId} className={list.item} data-testid="upload-item" data-status={row.status} data-parts={first.parts}>
                <FileAudio size={22} aria-hidden="true" className={list.icon} />
                <div className={list.main}>
                  <span className={list.name}>{name}</span>
                  <span className={list.meta}>
                    <Badge tone={row.tone}>{row.badge}</Badge>
                    {row.detail && (
                      <span className="muted" data-testid="upload-detail">
                        {row.detail}
                      </span>
                    )}
                  </span>
                  {row.value !== null && <ProgressBar label={`${name}: parts uploaded`} value={row.value} />}
                  {anyDone && row.badge !== "Recording" && (
                    <span className={list.links}>
                      <Link className={list.link} href={noteHref(parts)}>
                        Open note
                      </Link>
                    </span>
                  )}
                </div>
                <span className={list.buttons}>
                  <ListenHere parts={parts} name={name} />
                  {(row.status === "failed" || row.status === "pending") && row.badge !== SMALLER && (
                    <IconButton
                      label={`Retry ${name} now`}
                      icon={<RotateCw size={20} aria-hidden="true" />}
                      onClick={() => void retryRecording(first.batchId).then(() => processQueue({ owner, force: true }))}
                    />
                  )}
                  {!sending && row.badge !== "Recording" && (
                    <IconButton
                      label={`${row.status === "done" ? "Remove" : "Discard"} ${name}`}
                      icon={<Trash2 size={20} aria-hidden="true" />}
                      onClick={() => void discardRecording(first.batchId)}
                    />
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * A recording still on this phone (not uploaded yet, e.g. offline) plays from IndexedDB: its parts
 * one after the other. Once uploaded, its note plays it from the server.
 */
function ListenHere({ parts, name }: { parts: QueuedUpload[]; name: string }) {
  const [playing, setPlaying] = useState(false);
  const audio = useRef<HTMLAudioElement | null>(null);
  const blobs = parts.map((p) => p.blob).filter((b): b is Blob => b !== null);
  useEffect(() => () => audio.current?.pause(), []);
  if (!blobs.length) return null;

  function stop() {
    audio.current?.pause();
    audio.current = null;
    setPlaying(false);
  }

  function play(index = 0) {
    if (index >= blobs.length) return stop();
    const url = URL.createObjectURL(blobs[index]);
    const el = new Audio(url);
    audio.current = el;
    el.onended = () => {
      URL.revokeObjectURL(url);
      if (audio.current === el) play(index + 1);
    };
    el.onerror = () => {
      URL.revokeObjectURL(url);
      stop();
    };
    setPlaying(true);
    void el.play().catch(stop);
  }

  return (
    <IconButton
      label={playing ? `Stop ${name}` : `Listen to ${name}`}
      icon={playing ? <Square size={18} aria-hidden="true" /> : <Play size={20} aria-hidden="true" />}
      onClick={() => (playing ? stop() : play())}
      data-testid="listen-local"
    />
  );
}
