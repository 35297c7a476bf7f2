"use client";

import { AudioLines } from "lucide-react";
import { useEffect, useRef } from "react";
import type { Transcription } from "@/app/_lib/api.ts";
import type { ToastShow } from "@/app/_ui/index.ts";
import styles from "../note.module.css";

// A note's recording is heard again after the text it opened with: a live recording's whole audio
// after Stop (the server's second pass), or an older note by the accurate recognizer when the
// person asks. While that runs the note says so in a line; when it lands on an open note, a toast
// says "Text improved", with Undo (the earlier text back: `onUndo`), or that the words came out
// the same when the person had asked. The line goes once the person edits: their text is kept, so
// nothing is waited for.

/** The toasts' topic: Undo's answer takes the place of the toast that offered it. */
export const HEARD_AGAIN = "heard-again";

export function TextImproving({
  note,
  editing,
  toast,
  onUndo,
  asked,
}: {
  note: Transcription;
  editing: boolean;
  toast: ToastShow;
  onUndo: (() => void) | null;
  /** The person asked for this hearing on this page (a pass that changes nothing is then told). */
  asked: boolean;
}) {
  const wasImproving = useRef(note.text_improving);
  const improvedAt = useRef(note.text_improved_at);
  useEffect(() => {
    if (wasImproving.current && !note.text_improving) {
      const about = { topic: HEARD_AGAIN, about: () => [document.getElementById("note-heading"), document.getElementById("note-summary"), document.querySelector("[data-testid=basic-recognizer]"), document.getElementById("transcript-text")] };
      if (note.text_improved_at && note.text_improved_at !== improvedAt.current) {
        toast("Text improved: heard again from the whole recording.", note.text_improved_undoable && onUndo ? { label: "Undo", onClick: onUndo } : undefined, about);
      } else if (asked && !note.edited_at) {
        toast("Heard again: nothing to change, so the text stays.", undefined, about);
      }
    }
    wasImproving.current = note.text_improving;
    improvedAt.current = note.text_improved_at;
  }, [note.text_improving, note.text_improved_at, note.text_improved_undoable, note.edited_at, toast, onUndo, asked]);
  if (!note.text_improving || editing || note.edited_at) return null;
  return (
    <p className={styles.improving} role="status" data-testid="text-improving">
      <AudioLines size={16} aria-hidden="true" />
      <span>Improving the text: hearing the whole recording again…</span>
    </p>
  );
}
