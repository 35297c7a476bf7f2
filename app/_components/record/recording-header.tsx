"use client";

import { Pin } from "lucide-react";
import type { Recording } from "@/app/_lib/api.ts";
import { duration } from "@/app/_lib/notes/note-text.ts";
import { CleanUpStatus } from "@/app/_components/note/clean-up-status.tsx";
import { NoteTags } from "@/app/_components/note/note-tags.tsx";
import { LocalTime } from "@/app/_ui/index.ts";
import styles from "../note/note.module.css";

/** A recording in parts, named as one note: when, how long, how many parts, its state and tags. */
export function RecordingHeader({
  title,
  recording,
  firstRecordedAt,
  onTags,
}: {
  title: string;
  recording: Recording | null;
  firstRecordedAt?: string;
  onTags: (tags: string[]) => void;
}) {
  return (
    <header className={styles.header}>
      <h1 className={styles.title}>{title}</h1>
      {recording && (
        <p className={styles.meta} data-testid="joined-summary">
          <LocalTime iso={firstRecordedAt ?? recording.created_at} />
          <span aria-hidden="true">·</span>
          <span data-testid="joined-duration">{duration(recording.duration)}</span>
          <span aria-hidden="true">·</span>
          <span>
            {recording.parts_received} {recording.parts_received === 1 ? "part" : "parts"}
          </span>
          {recording.pinned && (
            <span className={styles.pinned} data-testid="pinned">
              <Pin size={14} aria-hidden="true" /> Pinned
            </span>
          )}
          <CleanUpStatus optimization={recording.optimization} />
        </p>
      )}
      {/* One note: the server sets its tags (and pin) on every part, whichever part is named. */}
      {recording && recording.parts[0] && <NoteTags noteId={recording.parts[0].transcription_id} tags={recording.tags} onSaved={(saved) => onTags(saved.tags)} />}
    </header>
  );
}
