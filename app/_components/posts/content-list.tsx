"use client";

import { useEffect, useState } from "react";
import { FileText, Send, TriangleAlert } from "lucide-react";
import { saveRead } from "@/app/_lib/api.ts";
import { getFamily, listMasters, type ContentItem, type Family } from "@/app/_lib/posts/content.ts";
import { Badge, ButtonLink, EmptyState, LocalTime, Notice, RowLink, RowList, Spinner } from "@/app/_ui/index.ts";
import { FILTERS, STATE_TONE, postState, type PostFilter, type PostState } from "@/app/_components/posts/post-state.ts";
import styles from "./posts.module.css";

// Families are read a few at a time: the list shows each master's posts by state.
const PARALLEL = 4;
const SHOWN: { state: PostState; words: (n: number) => string }[] = [
  { state: "writing", words: () => "writing…" },
  { state: "review", words: (n) => `${n} to review` },
  { state: "changed", words: (n) => `${n} changed` },
  { state: "failed", words: (n) => `${n} not written` },
  { state: "stale", words: (n) => `${n} out of date` },
  { state: "approved", words: (n) => `${n} approved` },
  { state: "shared", words: (n) => `${n} shared` },
  { state: "sharedEarlier", words: (n) => `${n} shared an earlier text` },
  { state: "published", words: (n) => `${n} posted` },
];

async function statesOf(masters: ContentItem[], onEach: (id: string, states: PostState[]) => void) {
  const queue = [...masters];
  const worker = async () => {
    for (let m = queue.shift(); m; m = queue.shift()) {
      const f: Family | null = await getFamily(m.id).catch(() => null);
      onEach(m.id, f ? f.variants.map((v) => postState(v, f.deliveries)) : []);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

const statesIn = (f: Family) => f.variants.map((v) => postState(v, f.deliveries));

/** What the server read for the first paint: the masters (as listMasters() asks) and their families. */
export type PostsSeed = { list: { items: ContentItem[]; next_cursor: string | null }; families: Family[] };

export function ContentList({ initial }: { initial?: PostsSeed }) {
  const [masters, setMasters] = useState<ContentItem[] | null>(initial?.list.items ?? null);
  const [states, setStates] = useState<Record<string, PostState[]>>(() =>
    Object.fromEntries((initial?.families ?? []).map((f) => [f.master.id, statesIn(f)])),
  );
  const [filter, setFilter] = useState<PostFilter>("all");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (initial) {
      // What the server read is this device's saved copy for offline reading, as fetches would be.
      void saveRead("/api/v1/content/items?limit=50", initial.list);
      for (const f of initial.families) void saveRead(`/api/v1/content/items/${encodeURIComponent(f.master.id)}/family`, f);
      return;
    }
    listMasters()
      .then((items) => {
        setMasters(items);
        return statesOf(items, (id, s) => setStates((all) => ({ ...all, [id]: s })));
      })
      .catch((err: Error) => setError(err.message));
  }, [initial]);

  if (error)
    return (
      <Notice tone="danger" icon={<TriangleAlert size={18} aria-hidden="true" />} role="alert">
        Your posts could not be loaded: {error}
      </Notice>
    );
  if (!masters)
    return (
      <p className={styles.live}>
        <Spinner /> Loading your posts…
      </p>
    );
  if (!masters.length)
    return (
      <EmptyState
        icon={<Send size={26} />}
        title="No posts yet"
        action={
          <ButtonLink href="/transcripts" size="large">
            <FileText size={20} aria-hidden="true" /> Pick a note
          </ButtonLink>
        }
      >
        Open a note and tap “Make posts from this note”: Voicedraft writes a version for each of your channels.
      </EmptyState>
    );

  const matches = (id: string, f: PostFilter) => f === "all" || (states[id] ?? []).some((s) => FILTERS.find((x) => x.value === f)!.states.includes(s));
  const shown = masters.filter((m) => matches(m.id, filter));
  return (
    <div className="stack">
      <div className={styles.filters} role="group" aria-label="Show">
        {FILTERS.map((f) => {
          const n = masters.filter((m) => matches(m.id, f.value)).length;
          if (f.value !== "all" && !n && filter !== f.value) return null;
          return (
            <button key={f.value} type="button" className={styles.filter} aria-pressed={filter === f.value} onClick={() => setFilter(f.value)}>
              {f.label} <span className={styles.filterCount}>{n}</span>
            </button>
          );
        })}
      </div>
      {shown.length ? (
        <RowList label="Posts">
          {shown.map((m) => (
            <RowLink
              key={m.id}
              href={`/content/${m.id}`}
              testId="master"
              title={m.title || "Untitled"}
              meta={<Summary states={states[m.id]} date={m.updated_at} />}
              excerpt={m.body}
            />
          ))}
        </RowList>
      ) : (
        <p className="muted">Nothing here right now.</p>
      )}
    </div>
  );
}

function Summary({ states, date }: { states: PostState[] | undefined; date: string }) {
  const when = <LocalTime iso={date} time={false} />;
  if (!states) return <span>{when}</span>;
  if (!states.length) return <span>{when} · no posts written yet</span>;
  return (
    <>
      <span>{when}</span>
      {SHOWN.map(({ state, words }) => {
        const n = states.filter((s) => s === state).length;
        return n ? (
          <Badge key={state} tone={STATE_TONE[state]} data-testid={`count-${state}`}>
            {words(n)}
          </Badge>
        ) : null;
      })}
    </>
  );
}
