"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { ApiRequestError, getRecording, type Recording } from "@/app/_lib/api.ts";
import { createMaster } from "@/app/_lib/content.ts";
import { onQueueChange, type QueuedUpload } from "@/app/_lib/local-db.ts";
import { listUploads, recordingIdOf } from "@/app/_lib/upload-queue.ts";
import { OptimizationStatus } from "@/app/_components/optimization-status.tsx";

const POLL_MS = 3000;
const LOCAL_LABEL = { pending: "waiting to upload", uploading: "uploading…", done: "uploaded", failed: "upload failed" } as const;

/**
 * A recording uploaded in parts, as the server joins it (so any device sees the same), plus the
 * parts this device still holds in its upload queue.
 */
export function RecordingTranscript({ id, owner }: { id: string; owner: string }) {
  const [recording, setRecording] = useState<Recording | null>(null);
  const [local, setLocal] = useState<QueuedUpload[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();

  const load = useCallback(async () => {
    const queued = await listUploads(owner)
      .then((items) => items.filter((item) => recordingIdOf(item) === id))
      .catch(() => []);
    setLocal(queued);
    try {
      setRecording(await getRecording(id));
      setError(null);
    } catch (err) {
      // 404 while every part is still on this device is not an error, just early.
      if (!(err instanceof ApiRequestError && err.status === 404 && queued.length)) setError((err as Error).message);
    }
    setLoaded(true);
  }, [id, owner]);

  const received = new Set(recording?.parts.map((p) => p.part));
  const waiting = local.filter((item) => !received.has(item.part - 1)).sort((a, b) => a.part - b.part);
  const optimizing = recording?.optimization?.status === "pending" || recording?.optimization?.status === "running";
  const busy = waiting.some((item) => item.status !== "failed") || optimizing;

  useEffect(() => {
    // Loading on mount, and again whenever this device's queue moves.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
    return onQueueChange(() => void load());
  }, [load]);
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [busy, load]);

  if (error) return <p className="error">{error}</p>;
  if (!loaded) return <p>Loading…</p>;
  return (
    <div className="stack">
      <h1>Voice note</h1>
      {recording ? (
        <>
          <p className="muted" data-testid="joined-summary">
            {recording.parts_received} {recording.parts_received === 1 ? "part" : "parts"} · {Math.round(recording.duration)} s
            {recording.optimization && " · "}
            <OptimizationStatus optimization={recording.optimization} />
          </p>
          {waiting.length > 0 && (
            <p role="status" data-testid="joined-waiting">
              {waiting.length} more {waiting.length === 1 ? "part is" : "parts are"} still on this device; the text below has the parts received so far.
            </p>
          )}
          <p className="transcript-text" data-testid="joined-text">
            {recording.text || <em>(no words recognized)</em>}
          </p>
          {recording.optimization?.text && (
            <>
              <h2>Cleaned-up text</h2>
              <p className="transcript-text" data-testid="joined-optimized-text">
                {recording.optimization.text}
              </p>
            </>
          )}
          <button
            type="button"
            className="secondary"
            onClick={() =>
              createMaster({ body: recording.text })
                .then((master) => router.push(`/content/${master.id}`))
                .catch((err: Error) => setError(err.message))
            }
          >
            Make posts from this note
          </button>
        </>
      ) : (
        <p role="status">Nothing of this recording has reached the server yet; it uploads by itself when this phone is online.</p>
      )}
      <h2>Parts</h2>
      <ol className="parts">
        {recording?.parts.map((p) => (
          <li key={`server-${p.part}`}>
            <Link href={`/transcripts/${p.transcription_id}`}>Part {p.part + 1}</Link> <span className="muted">{Math.round(p.duration)} s</span>
          </li>
        ))}
        {waiting.map((item) => (
          <li key={item.id} data-testid="joined-local-part">
            Part {item.part} <span className="muted">on this device, {LOCAL_LABEL[item.status]}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
