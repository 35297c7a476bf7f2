"use client";

import { FileText, Mic, TriangleAlert } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { api, saveRead, type Transcription, type TranscriptionList } from "@/app/_lib/api.ts";
import { groupByRecording } from "@/app/_lib/group-transcripts.ts";
import { onQueueChange } from "@/app/_lib/local-db.ts";
import { OptimizationStatus } from "@/app/_components/optimization-status.tsx";
import { duration, noteTitle, shownText } from "@/app/_components/note-text.ts";
import { Button, ButtonLink, EmptyState, LocalTime, Notice, RowLink, RowList } from "@/app/_ui/index.ts";

const pagePath = (after: string | null) => `/api/v1/transcriptions?limit=20${after ? `&cursor=${encodeURIComponent(after)}` : ""}`;

/** `initial`: the first page as the server read it for this page (else it is fetched on mount). */
export function TranscriptList({ initial }: { initial?: TranscriptionList }) {
  const [items, setItems] = useState<Transcription[] | null>(initial?.transcriptions ?? null);
  const [cursor, setCursor] = useState<string | null>(initial?.next_cursor ?? null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (after: string | null) => {
    try {
      const page = await api<TranscriptionList>(pagePath(after));
      setItems((prev) => (after ? [...(prev ?? []), ...page.transcriptions] : page.transcriptions));
      setCursor(page.next_cursor);
    } catch (err) {
      setError((err as Error).message);
    }
  }, []);
  // A recording this phone uploads (from any page) shows up here as soon as it is text.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = onQueueChange(() => {
      clearTimeout(timer);
      timer = setTimeout(() => navigator.onLine && void load(null), 500);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [load]);
  useEffect(() => {
    // The server's first page is this device's saved copy for offline reading, as a fetch would be;
    // offline, the page may be the service worker's old copy, which must not replace a newer one.
    if (initial) return void (navigator.onLine && saveRead(pagePath(null), initial));
    // Loading on mount is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load(null);
  }, [load, initial]);

  if (error)
    return (
      <Notice tone="danger" icon={<TriangleAlert size={18} aria-hidden="true" />} role="alert">
        Your notes could not be loaded: {error}
      </Notice>
    );
  if (!items) return <p className="muted">Loading your notes…</p>;
  if (!items.length)
    return (
      <EmptyState
        icon={<FileText size={26} />}
        title="No notes yet"
        action={
          <ButtonLink href="/record" size="large">
            <Mic size={20} aria-hidden="true" /> Record your first note
          </ButtonLink>
        }
      >
        Record a voice note and its text shows up here.
      </EmptyState>
    );
  return (
    <>
      <RowList label="Notes">
        {groupByRecording(items).map((entry) => {
          if (entry.kind === "transcript") {
            const t = entry.transcript;
            const text = shownText(t);
            return (
              <RowLink
                key={t.id}
                href={`/transcripts/${t.id}`}
                title={text.trim() ? noteTitle(text) : "Voice note (no words recognized)"}
                meta={
                  <>
                    <span>
                      <LocalTime iso={t.created_at} /> · {duration(t.duration)}
                    </span>{" "}
                    <OptimizationStatus optimization={t.optimization} />
                  </>
                }
                excerpt={text.slice(0, 160)}
              />
            );
          }
          const text = entry.parts.map((p) => shownText(p).trim()).filter(Boolean).join(" ");
          const seconds = entry.parts.reduce((sum, p) => sum + p.duration, 0);
          return (
            <RowLink
              key={`recording-${entry.id}`}
              testId="recording-entry"
              href={`/transcripts/recordings/${encodeURIComponent(entry.id)}`}
              title={text ? noteTitle(text) : "Voice note (no words recognized)"}
              meta={
                <>
                  {/* One piece of the row's flex line: a wrap never starts a line with "·". */}
                  <span>
                    <LocalTime iso={entry.parts[0].created_at} /> · {duration(seconds)} · {entry.parts.length} parts
                  </span>
                </>
              }
              excerpt={text.slice(0, 160)}
            />
          );
        })}
      </RowList>
      {cursor && (
        <Button variant="secondary" block onClick={() => load(cursor)}>
          Show older notes
        </Button>
      )}
    </>
  );
}
