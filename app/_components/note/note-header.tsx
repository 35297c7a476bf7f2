"use client";

import { Pin } from "lucide-react";
import type { Transcription } from "@/app/_lib/api.ts";
import { duration } from "@/app/_lib/notes/note-text.ts";
import { CleanUpStatus } from "@/app/_components/note/clean-up-status.tsx";
import { NoteTitle } from "@/app/_components/note/note-tools.tsx";
import { NoteTags } from "@/app/_components/note/note-tags.tsx";
import { LocalTime } from "@/app/_ui/index.ts";
import styles from "./note.module.css";

/** The note's name (renamable), when it was said and for how long, its state, and its tags. */
export function NoteHeader({
  note,
  fallbackTitle,
  offline,
  onChanged,
}: {
  note: Transcription;
  fallbackTitle: string;
  offline: boolean;
  onChanged: (update: (current: Transcription) => Transcription) => void;
}) {
  return (
    <header className={styles.header}>
      <NoteTitle note={note} fallback={fallbackTitle} onRenamed={(renamed) => onChanged(() => renamed)} disabled={offline} />
      <p className={styles.meta}>
        <LocalTime iso={note.recorded_at} />
        <span aria-hidden="true">·</span>
        <span>{duration(note.duration)}</span>
        {note.pinned && (
          <span className={styles.pinned} data-testid="pinned">
            <Pin size={14} aria-hidden="true" /> Pinned
          </span>
        )}
        <CleanUpStatus optimization={note.optimization} />
      </p>
      <NoteTags noteId={note.id} tags={note.tags} onSaved={(saved) => onChanged((current) => ({ ...current, tags: saved.tags }))} />
    </header>
  );
}
