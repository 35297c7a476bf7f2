"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { api, type Transcription } from "@/lib/web/api.ts";
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
        {items.map((t) => (
          <li key={t.id} className="card">
            <Link href={`/transcripts/${t.id}`}>{new Date(t.created_at).toLocaleString()}</Link>{" "}
            <span className="muted">{Math.round(t.duration)} s</span> <OptimizationStatus optimization={t.optimization} />
            <p className="transcript-excerpt">{t.text.slice(0, 160) || <em>(no words recognized)</em>}</p>
          </li>
        ))}
      </ul>
      {cursor && (
        <button type="button" className="secondary" onClick={() => load(cursor)}>
          Load more
        </button>
      )}
    </>
  );
}
