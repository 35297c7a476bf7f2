"use client";

import { FileText, Mic, Sparkles, Tag as TagIcon, TriangleAlert } from "lucide-react";
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { listTranscriptions, notesPagePath, saveRead, type Tag, type Transcription, type TranscriptionList } from "@/app/_lib/api.ts";
import { deletionsVersion, isBeingDeleted, onDeletionsChange } from "@/app/_lib/notes/note-deletion.ts";
import { onQueueChange } from "@/app/_lib/local-db.ts";
import { ButtonLink, ChipLink, ChipList, EmptyState, Notice } from "@/app/_ui/index.ts";
import styles from "../note/note.module.css";
import { NoteRows, SearchResults } from "@/app/_components/notes/note-rows.tsx";

const PAGE = 20;
/** The tags to filter Notes by, one row that scrolls sideways: All, then the most used first. */
function TagFilter({ tags, current }: { tags: Tag[]; current: string | null }) {
  const names = tags.map((t) => t.name);
  if (current && !names.includes(current)) names.unshift(current);
  if (!names.length) return null;
  return (
    <ChipList label="Show notes tagged" scroll>
      <ChipLink href="/transcripts" current={!current} data-testid="tag-filter">
        All
      </ChipLink>
      {names.map((name) => (
        <ChipLink key={name} href={`/transcripts?tag=${encodeURIComponent(name)}`} current={name === current} data-testid="tag-filter">
          #{name}
        </ChipLink>
      ))}
    </ChipList>
  );
}

/**
 * `initial`: the first page as the server read it for this page (else it is fetched on mount);
 * `tag`: only the notes with this tag (?tag= in the page's URL); `tags`: the person's tags, to filter by.
 */
export function TranscriptList({ initial, tag = null, tags = [] }: { initial?: TranscriptionList; tag?: string | null; tags?: Tag[] }) {
  const [items, setItems] = useState<Transcription[] | null>(initial?.transcriptions ?? null);
  const [cursor, setCursor] = useState<string | null>(initial?.next_cursor ?? null);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  // Notes being deleted (Undo still possible) are hidden at once.
  const deletions = useSyncExternalStore(onDeletionsChange, deletionsVersion, () => 0);

  const load = useCallback(async (after: string | null) => {
    try {
      const page = await listTranscriptions(PAGE, after, tag);
      setItems((prev) => (after ? [...(prev ?? []), ...page.transcriptions] : page.transcriptions));
      setCursor(page.next_cursor);
    } catch (err) {
      setError((err as Error).message);
    }
  }, [tag]);
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
    if (initial) return void (navigator.onLine && saveRead(notesPagePath(PAGE, null, tag), initial));
    // Loading on mount is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load(null);
  }, [load, initial, tag]);

  if (error)
    return (
      <Notice tone="danger" icon={<TriangleAlert size={18} aria-hidden="true" />} role="alert">
        Your notes could not be loaded: {error}
      </Notice>
    );
  if (!items) return <p className="muted">Loading your notes…</p>;
  if (!items.length && tag)
    return (
      <>
        <TagFilter tags={tags} current={tag} />
        <EmptyState
          icon={<TagIcon size={26} />}
          title={`No notes tagged #${tag}`}
          action={
            <ButtonLink href="/transcripts" variant="secondary">
              Show all notes
            </ButtonLink>
          }
        >
          Tag a note from its page: tap “Add tag” under its title.
        </EmptyState>
      </>
    );
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
  void deletions;
  const shown = items.filter((t) => !isBeingDeleted(t.id));
  return (
    <>
      <div className={styles.search} role="search">
        <label htmlFor="note-search" className="visually-hidden">
          Search notes
        </label>
        <input
          id="note-search"
          type="search"
          placeholder="Search notes"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          enterKeyHint="search"
          autoComplete="off"
          maxLength={200}
          data-testid="note-search"
        />
        {/* Beside search: a question across the notes, answered with the moments said. */}
        <ButtonLink href="/ask" variant="secondary" prefetch={false}>
          <Sparkles size={18} aria-hidden="true" /> Ask
        </ButtonLink>
      </div>
      {!query.trim() && <TagFilter tags={tags} current={tag} />}
      {query.trim() ? <SearchResults query={tag ? `tag:"${tag}" ${query.trimStart()}` : query.trimStart()} shownAs={query.trimStart()} /> : <NoteRows items={shown} cursor={cursor} onMore={() => load(cursor)} />}
    </>
  );
}
