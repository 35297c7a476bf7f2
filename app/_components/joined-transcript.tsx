"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { api, type Transcription } from "@/lib/web/api.ts";
import { createMaster } from "@/lib/web/content.ts";

/** The parts of a split recording, stitched in recording order. */
export function JoinedTranscript({ ids }: { ids: string[] }) {
  const [parts, setParts] = useState<Transcription[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();

  useEffect(() => {
    Promise.all(ids.map((id) => api<Transcription>(`/api/v1/transcriptions/${encodeURIComponent(id)}`)))
      .then(setParts)
      .catch((err: Error) => setError(err.message));
  }, [ids]);

  if (error) return <p className="error">{error}</p>;
  if (!parts) return <p>Loading…</p>;
  const text = parts.map((p) => p.text.trim()).filter(Boolean).join("\n\n");
  const duration = parts.reduce((sum, p) => sum + p.duration, 0);
  return (
    <div className="stack">
      <h1>Full transcript</h1>
      <p className="muted" data-testid="joined-summary">
        {parts.length} parts · {Math.round(duration)} s
      </p>
      <p className="transcript-text" data-testid="joined-text">
        {text}
      </p>
      <button
        type="button"
        className="secondary"
        onClick={() =>
          createMaster({ body: text })
            .then((master) => router.push(`/content/${master.id}`))
            .catch((err: Error) => setError(err.message))
        }
      >
        Create content from the full transcript
      </button>
      <h2>Parts</h2>
      <ol>
        {parts.map((p, i) => (
          <li key={p.id}>
            <Link href={`/transcripts/${p.id}`}>Part {i + 1}</Link> <span className="muted">{Math.round(p.duration)} s</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
