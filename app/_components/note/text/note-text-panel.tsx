"use client";

import { useCallback, useRef, type RefObject } from "react";
import { pickWordAt } from "@/app/_lib/notes/note-text.ts";
import { NoteViewTabs, type NoteView } from "@/app/_components/note/text/note-view-tabs.tsx";
import { ReadingText } from "@/app/_components/note/text/reading-text.tsx";
import type { PlayerHandle } from "@/app/_components/note/note-player.tsx";
import type { TextToken } from "@/app/_lib/notes/word-times.ts";
import styles from "../note.module.css";

/**
 * The note's text under its two tabs: "Text" for reading (a tap on a word fixes it, or plays from
 * it while the recording plays) or, once asked, for editing; "As recognized" for what the
 * recognizer heard. Editing offers the word at the caret (or the selected words) for fixing.
 */
export function NoteTextPanel({
  view,
  onView,
  editing,
  text,
  original,
  onEdit,
  onWord,
  tokens,
  spoken,
  player,
  playing,
}: {
  view: NoteView;
  onView: (view: NoteView) => void;
  editing: boolean;
  text: string;
  original: string;
  onEdit: (text: string) => void;
  /** A word offered (`open`: tapped, so "Fix a word" opens), and where it starts in the text. */
  onWord: ((word: string, open: boolean, at?: number | null) => void) | null;
  tokens?: TextToken[];
  spoken: number;
  player: RefObject<PlayerHandle | null>;
  playing: boolean;
}) {
  const textRef = useRef<HTMLTextAreaElement>(null);
  const capture = useCallback(() => {
    const el = textRef.current;
    if (!el || !onWord) return;
    const { word, at } = pickWordAt(el.value, el.selectionStart, el.selectionEnd);
    onWord(word, false, word ? at : null);
  }, [onWord]);
  // React's onSelect misses a selection made by script or by some touch keyboards: listen natively too.
  const attachText = useCallback(
    (el: HTMLTextAreaElement | null) => {
      textRef.current = el;
      el?.addEventListener("select", capture);
    },
    [capture],
  );
  return (
    <NoteViewTabs view={view} onChange={onView}>
      {view === "text" && editing ? (
        <>
          <label htmlFor="transcript-text" className="visually-hidden">
            Text of the note
          </label>
          <textarea
            id="transcript-text"
            ref={attachText}
            className={styles.text}
            value={text}
            spellCheck
            autoFocus
            onChange={(e) => onEdit(e.target.value)}
            onSelect={capture}
            onClick={capture}
            onKeyUp={capture}
            data-testid="note-editor"
          />
        </>
      ) : view === "text" ? (
        <ReadingText
          text={text}
          onWord={onWord ?? (() => undefined)}
          tokens={tokens}
          spoken={spoken}
          onSeek={playing ? (t) => player.current?.seek(t, true) : undefined}
        />
      ) : (
        <p className={styles.original} data-testid="original-text">
          {original}
        </p>
      )}
    </NoteViewTabs>
  );
}
