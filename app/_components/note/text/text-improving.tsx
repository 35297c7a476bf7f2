"use client";

import { AudioLines } from "lucide-react";
import { useEffect, useRef } from "react";
import type { Transcription } from "@/app/_lib/api.ts";
import type { ToastShow } from "@/app/_ui/index.ts";
import styles from "../note.module.css";

// A live recording's note opens with the text heard while the person spoke; the whole recording is
// then heard again, and its text may take the live text's place (the server's second pass). While
// that runs the note says so in a line; when it lands on an open note, a toast says "Text improved".
// The line goes once the person edits: their text is kept, so nothing is waited for.

export function TextImproving({ note, editing, toast }: { note: Transcription; editing: boolean; toast: ToastShow }) {
  const wasImproving = useRef(note.text_improving);
  useEffect(() => {
    if (wasImproving.current && !note.text_improving && note.text_improved_at) toast("Text improved: heard again from the whole recording.", undefined, { about: () => [document.getElementById("note-summary")] });
    wasImproving.current = note.text_improving;
  }, [note.text_improving, note.text_improved_at, toast]);
  if (!note.text_improving || editing || note.edited_at) return null;
  return (
    <p className={styles.improving} role="status" data-testid="text-improving">
      <AudioLines size={16} aria-hidden="true" />
      <span>Improving the text: hearing the whole recording again…</span>
    </p>
  );
}
