"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { api, type Transcription } from "@/lib/web/api.ts";
import { groupByRecording } from "@/lib/web/group-transcripts.ts";
import { OptimizationStatus } from "@/app/_components/optimization-status.tsx";

type Page = { transcriptions: Transcription[]; next_cursor: string | null };

export function TranscriptList() {
  const [items, setItems] = useState<Transcription[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (after: string | null) => {
    try {
      const page = await api<Page>(`/api/v1/transcriptions?limit=20${after ? `&cursor=${encodeURIComponent(after)}` : ""}`);
      setItems((prev) => (after ? [...(prev ?? []), ...page.transcriptions] : page.transcriptions));
      setCursor(page.next_cursor);
    } catch (err) {
      setError((err as Error).message);
    }
  }, []);
  useEffect(() => {
    // Loading on mount is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load(null);
  }, [load]);

  if (error) return <p className="error">{error}</p>;
  if (!items) return <p>Loading…</p>;
  if (!items.length) return <p>No transcripts yet. <Link href="/record">Record a voice note</Link>.</p>;
  return (
    <>
      <ul className="plain" aria-label="Transcripts">
        {groupByRecording(items).map((entry) =>
          entry.kind === "transcript" ? (
            <li key={entry.transcript.id} className="card">
              <Link href={`/transcripts/${entry.transcript.id}`}>{new Date(entry.transcript.created_at).toLocaleString()}</Link>{" "}
              <span className="muted">{Math.round(entry.transcript.duration)} s</span> <OptimizationStatus optimization={entry.transcript.optimization} />
              <p className="transcript-excerpt">{entry.transcript.text.slice(0, 160) || <em>(no words recognized)</em>}</p>
            </li>
          ) : (
            <RecordingEntry key={`recording-${entry.id}`} id={entry.id} parts={entry.parts} />
          ),
        )}
      </ul>
      {cursor && (
        <button type="button" className="secondary" onClick={() => load(cursor)}>
          Load more
        </button>
      )}
    </>
  );
}

function RecordingEntry({ id, parts }: { id: string; parts: Transcription[] }) {
  const text = parts.map((p) => p.text.trim()).filter(Boolean).join(" ");
  const seconds = parts.reduce((sum, p) => sum + p.duration, 0);
  return (
    <li className="card" data-testid="recording-entry">
      <Link href={`/transcripts/recordings/${encodeURIComponent(id)}`}>{new Date(parts[0].created_at).toLocaleString()}</Link>{" "}
      <span className="muted">
        {parts.length} parts · {Math.round(seconds)} s
      </span>
      <p className="transcript-excerpt">{text.slice(0, 160) || <em>(no words recognized)</em>}</p>
    </li>
  );
}
