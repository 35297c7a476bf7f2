"use client";

import { Pin, SearchX, Sparkles } from "lucide-react";
import { useEffect, useState } from "react";
import { ApiRequestError, searchTranscriptions, type Transcription, type TranscriptionList } from "@/app/_lib/api.ts";
import { isBeingDeleted } from "@/app/_lib/notes/note-deletion.ts";
import { groupByRecording } from "@/app/_lib/notes/group-transcripts.ts";
import { CleanUpStatus } from "@/app/_components/note/clean-up-status.tsx";
import { duration, shownText, titleOf } from "@/app/_lib/notes/note-text.ts";
import { searchCount } from "@/app/_lib/notes/search-count.ts";
import { Button, ButtonLink, EmptyState, LocalTime, Notice, RowLink, RowList, TagLabel } from "@/app/_ui/index.ts";
import styles from "../note/note.module.css";

// The rows of Notes: each note (a recording in parts as one), with its time, length, clean-up,
// pin and tags; and search results, each with the words found marked in its snippet.

const SEARCH_DEBOUNCE_MS = 250;
type Match = TranscriptionList["transcriptions"][number];

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


/** The notes, newest first, a recording in parts as one entry. */
export function NoteRows({ items, cursor, onMore }: { items: Transcription[]; cursor: string | null; onMore: () => void }) {
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
                    <CleanUpStatus optimization={t.optimization} />
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
export function SearchResults({ query, shownAs = query }: { query: string; shownAs?: string }) {
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
      <EmptyState
        icon={<SearchX size={26} />}
        title={`No notes match “${shownAs}”`}
        action={
          // Search wants every word; a question typed here is better asked (any of its words).
          <ButtonLink href={`/ask?q=${encodeURIComponent(shownAs.trim())}`} variant="secondary" prefetch={false}>
            <Sparkles size={18} aria-hidden="true" /> Ask your notes instead
          </ButtonLink>
        }
      >
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
