"use client";

import { useEffect, useMemo, useRef, type MouseEvent } from "react";
import type { TextToken } from "@/app/_lib/notes/word-times.ts";
import { scrolling, visibleBand, wordAtPoint } from "@/app/_lib/notes/text-dom.ts";
import styles from "../note.module.css";
import playerStyles from "../player.module.css";

const FOLLOW_AFTER_SCROLL_MS = 4000;

/** Undoes the spoken word's mark (an effect's clean-up). */
const unmark = (el: HTMLElement) => () => {
  el.classList.remove(playerStyles.spoken);
  el.removeAttribute("aria-current");
};

/**
 * The text as painted with the page. A tap on a word calls `onWord(word, true, at)` (`at`: where it
 * starts in the text); words selected with a long-press or a drag call `onWord(words, false)`
 * (offered, not opened: the drag's own click must not open the sheet). With `tokens` (the words
 * timed from the recording), the word at `spoken` is highlighted and kept in view, and while the
 * recording plays (`onSeek`) a tap on a word plays from there instead: listening, the text is the
 * scrubber; paused, a tap fixes a word.
 */
export function ReadingText({
  text,
  onWord,
  tokens,
  spoken = -1,
  onSeek,
}: {
  text: string;
  onWord: (word: string, open: boolean, at?: number | null) => void;
  tokens?: TextToken[];
  spoken?: number;
  onSeek?: (seconds: number) => void;
}) {
  const reading = useRef<HTMLElement>(null);
  useEffect(() => {
    const onSelection = () => {
      const selection = document.getSelection();
      if (selection && !selection.isCollapsed && reading.current?.contains(selection.anchorNode)) onWord(selection.toString().trim().slice(0, 100), false, null);
    };
    document.addEventListener("selectionchange", onSelection);
    return () => document.removeEventListener("selectionchange", onSelection);
  }, [onWord]);

  // A reader who scrolls while it plays is not pulled back to the spoken word for a few seconds.
  const scrolledAt = useRef(0);
  useEffect(() => {
    const scrolled = () => (scrolledAt.current = Date.now());
    const events = ["wheel", "touchmove"] as const;
    for (const name of events) window.addEventListener(name, scrolled, { passive: true });
    return () => events.forEach((name) => window.removeEventListener(name, scrolled));
  }, []);

  // The spoken word is marked in place (no re-render of every word, four times a second).
  useEffect(() => {
    const el = reading.current?.querySelector<HTMLElement>(`[data-w="${spoken}"]`);
    if (!el) return;
    el.classList.add(playerStyles.spoken);
    el.setAttribute("aria-current", "true");
    // Kept in view, between the player pinned at the top and the actions pinned at the bottom; and
    // the text moved up under the player when it starts low (under the summary, say): listening,
    // the text has the screen, not what stands above it. Not while the reader scrolls.
    const band = visibleBand();
    const box = el.getBoundingClientRect();
    const textTop = reading.current!.getBoundingClientRect().top;
    const height = band.bottom - band.top;
    const away = box.top < band.top + 8 || box.bottom > band.bottom - 24 || textTop > band.top + 48;
    if (away && Date.now() - scrolledAt.current > FOLLOW_AFTER_SCROLL_MS) {
      // The word a third down the band, unless that leaves the text's start low on the screen.
      const by = Math.max(box.top - (band.top + height / 3), textTop - (band.top + 8));
      window.scrollBy({ top: by, behavior: scrolling() });
    }
    return unmark(el);
  }, [spoken]);

  const words = useMemo(
    () =>
      tokens?.map((t, i) =>
        t.word ? (
          <span key={i} data-w={i}>
            {t.text}
          </span>
        ) : (
          t.text
        ),
      ),
    [tokens],
  );

  function tap(event: MouseEvent<HTMLElement>) {
    if (!document.getSelection()?.isCollapsed) return;
    const hit = wordAtPoint(event.clientX, event.clientY, event.currentTarget);
    if (!hit) return;
    const at = (event.target as HTMLElement).closest<HTMLElement>("[data-w]")?.dataset.w;
    if (onSeek && tokens && at !== undefined) return onSeek(tokens[Number(at)].start);
    onWord(hit.word, true, hit.at);
  }
  return (
    <section ref={reading} id="transcript-text" aria-label="Text of the note" className={`${styles.text} ${styles.reading}`} onClick={tap} data-testid="note-text">
      {words ?? text}
    </section>
  );
}
