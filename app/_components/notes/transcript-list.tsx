"use client";

import { FileText, Mic, Pin, SearchX, Tag as TagIcon, TriangleAlert } from "lucide-react";
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { ApiRequestError, listTranscriptions, notesPagePath, saveRead, searchTranscriptions, type Tag, type Transcription, type TranscriptionList } from "@/app/_lib/api.ts";
import { deletionsVersion, isBeingDeleted, onDeletionsChange } from "@/app/_lib/notes/note-deletion.ts";
import { groupByRecording } from "@/app/_lib/notes/group-transcripts.ts";
import { onQueueChange } from "@/app/_lib/local-db.ts";
import { OptimizationStatus } from "@/app/_components/note/optimization-status.tsx";
import { duration, shownText, titleOf } from "@/app/_lib/notes/note-text.ts";
import { searchCount } from "@/app/_lib/notes/search-count.ts";
import { Button, ButtonLink, ChipLink, ChipList, EmptyState, LocalTime, Notice, RowLink, RowList, TagLabel } from "@/app/_ui/index.ts";
import styles from "../note/note.module.css";

const SEARCH_DEBOUNCE_MS = 250;
type Match = TranscriptionList["transcriptions"][number];


const PAGE = 20;
// A row shows two lines of a snippet: the first word found must be among them, so at most this
// many words come before it (the server starts a short note's snippet at its beginning).
const WORDS_BEFORE_MATCH = 5;

type Piece = { text: string; match: boolean };

/** The snippet with what comes before its first match cut to a few words ("… "). */
function closeToMatch(pieces: Piece[]): Piece[] {
  const first = pieces.findIndex((p) => p.match);
  if (first <= 0) return pieces;
  const before = pieces.slice(0, first).map((p) => p.text).join("");
  const words = before.match(/\S+\s*/gu) ?? [];
  if (words.length <= WORDS_BEFORE_MATCH) return pieces;
  return [{ text: `… ${words.slice(-WORDS_BEFORE_MATCH).join("")}`, match: false }, ...pieces.slice(first)];
}

/** A note's pin and tags, after its time in a row's meta line. */
function Labels({ note }: { note: Transcription }) {
  return (
    <>
      {note.pinned && (
        <span className={styles.pinned} data-testid="row-pinned">
          <Pin size={14} aria-hidden="true" />
          <span className="visually-hidden">Pinned</span>
        </span>
      )}
      {note.tags.map((tag) => (
        <TagLabel key={tag}>{tag}</TagLabel>
      ))}
    </>
  );
}

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
      </div>
      {!query.trim() && <TagFilter tags={tags} current={tag} />}
      {query.trim() ? <SearchResults query={tag ? `tag:"${tag}" ${query.trimStart()}` : query.trimStart()} shownAs={query.trimStart()} /> : <NoteRows items={shown} cursor={cursor} onMore={() => load(cursor)} />}
    </>
  );
}

/** The notes, newest first, a recording in parts as one entry. */
function NoteRows({ items, cursor, onMore }: { items: Transcription[]; cursor: string | null; onMore: () => void }) {
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
                title={titleOf(t, text)}
                meta={
                  <>
                    <span>
                      <LocalTime iso={t.recorded_at} /> · {duration(t.duration)}
                    </span>{" "}
                    <OptimizationStatus optimization={t.optimization} />
                    <Labels note={t} />
                  </>
                }
                excerpt={t.insights?.summary || text.slice(0, 160)}
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
              title={titleOf(entry.parts[0], text)}
              meta={
                <>
                  {/* One piece of the row's flex line: a wrap never starts a line with "·". */}
                  <span>
                    <LocalTime iso={entry.parts[0].recorded_at} /> · {duration(seconds)} · {entry.parts.length} parts
                  </span>
                  <Labels note={entry.parts[0]} />
                </>
              }
              excerpt={entry.parts[0].insights?.summary || text.slice(0, 160)}
            />
          );
        })}
      </RowList>
      {cursor && (
        <Button variant="secondary" block onClick={onMore}>
          Show older notes
        </Button>
      )}
    </>
  );
}


/**
 * The notes matching `query` (searched a moment after the last keystroke; the last word counts as
 * typed so far, and a request for an older query is cancelled), best first, the words found marked.
 */
function SearchResults({ query, shownAs = query }: { query: string; shownAs?: string }) {
  const [found, setFound] = useState<{ query: string; matches: Match[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    const stale = new AbortController();
    const timer = setTimeout(() => {
      searchTranscriptions(query, { signal: stale.signal })
        .then((page) => current && (setFound({ query, matches: page.transcriptions }), setError(null)))
        .catch((err: Error) => current && setError(err instanceof ApiRequestError && err.status === 0 ? "Search needs a connection." : err.message));
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
      stale.abort();
    };
  }, [query]);

  if (error) return <Notice tone="warning">{error}</Notice>;
  if (!found) return <p className="muted" aria-live="polite">Searching…</p>;
  const matches = found.matches.filter((t) => !isBeingDeleted(t.id));
  if (!matches.length) {
    return (
      <EmptyState icon={<SearchX size={26} />} title={`No notes match “${shownAs}”`}>
        Search finds words and their other forms (country, countries) in your notes&rsquo; titles and texts. Try fewer words, or put a phrase in quotes.
      </EmptyState>
    );
  }
  return (
    <>
      <p className="muted" aria-live="polite" data-testid="search-count">
        {searchCount(matches.length, shownAs)}
      </p>
      <RowList label="Notes found">
        {matches.map((t) => (
          <RowLink
            key={t.id}
            href={t.recording ? `/transcripts/recordings/${encodeURIComponent(t.recording.id)}` : `/transcripts/${t.id}`}
            title={titleOf(t, shownText(t))}
            meta={
              <>
                <span>
                  <LocalTime iso={t.recorded_at} /> · {duration(t.duration)}
                </span>
                <Labels note={t} />
              </>
            }
            excerpt={
              <span data-testid="search-snippet">
                {closeToMatch(t.search?.snippet ?? []).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
              </span>
            }
          />
        ))}
      </RowList>
    </>
  );
}
