"use client";

import { TriangleAlert } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent, type ReactNode } from "react";
import { addDictionaryEntry, dictionaryImpact } from "@/app/_lib/api.ts";
import { pickWord } from "@/app/_components/note/note-text.ts";
import { isEverydayPhrase } from "@/lib/dictionary/common-words.ts";
import { Button, Field, Notice, Sheet, Tabs } from "@/app/_ui/index.ts";
import type { TextToken } from "@/app/_lib/notes/word-times.ts";
import styles from "./note.module.css";
import playerStyles from "./player.module.css";

// The parts of a note's page shared by a note and a recording in parts: the tabs between the text
// and the recognized text, the text for reading, where one tap on a word opens "Fix a word" (the
// pattern of Letterly and AudioPen), and that sheet: the spelling is added to the dictionary, the
// caller fixes the text in front of the user.

export type NoteView = "text" | "original";

/** The words offered for fixing and whether "Fix a word" is open. */
export function useFixWord() {
  const [picked, setPicked] = useState("");
  const [open, setOpen] = useState(false);
  /** From ReadingText: a tapped word opens the sheet, selected words are only offered. */
  const onWord = useCallback((word: string, andOpen: boolean) => {
    setPicked(word);
    if (andOpen) setOpen(true);
  }, []);
  const close = useCallback(() => {
    setOpen(false);
    setPicked("");
  }, []);
  return { picked, setPicked, open, show: () => setOpen(true), onWord, close };
}

/** "Text" and "As recognized", with the chosen one's panel. */
export function NoteViewTabs({ view, onChange, children }: { view: NoteView; onChange: (view: NoteView) => void; children: ReactNode }) {
  return (
    <>
      <Tabs
        id="note-view"
        label="Which text"
        value={view}
        onChange={onChange}
        options={[
          { value: "text", label: "Text" },
          { value: "original", label: "As recognized" },
        ]}
      />
      <div id="note-view-panel" role="tabpanel" aria-labelledby={`note-view-${view}`} className={styles.panel}>
        {children}
      </div>
    </>
  );
}

/** Opens "Fix a word" with the words offered (selected, or at the editor's caret), else empty. */
export function FixWordButton({ picked, className, onClick, disabled = false }: { picked: string; className: string; onClick: () => void; disabled?: boolean }) {
  return (
    // Pressing it must not take the selection it offers away.
    <Button variant="secondary" className={className} onMouseDown={(e) => e.preventDefault()} onClick={onClick} disabled={disabled}>
      <span className={styles.clip}>{picked ? `Fix “${picked}”` : "Fix a word"}</span>
    </Button>
  );
}

/**
 * The text as painted with the page. A tap on a word calls `onWord(word, true)`; words selected
 * with a long-press or a drag call `onWord(words, false)` (offered, not opened: the drag's own
 * click must not open the sheet). With `tokens` (the words timed from the recording), the word at
 * `spoken` is highlighted and kept in view, and while the recording plays (`onSeek`) a tap on a
 * word plays from there instead: listening, the text is the scrubber; paused, a tap fixes a word.
 */
export function ReadingText({
  text,
  onWord,
  tokens,
  spoken = -1,
  onSeek,
}: {
  text: string;
  onWord: (word: string, open: boolean) => void;
  tokens?: TextToken[];
  spoken?: number;
  onSeek?: (seconds: number) => void;
}) {
  const reading = useRef<HTMLElement>(null);
  useEffect(() => {
    const onSelection = () => {
      const selection = document.getSelection();
      if (selection && !selection.isCollapsed && reading.current?.contains(selection.anchorNode)) onWord(selection.toString().trim().slice(0, 100), false);
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
    const word = wordAtPoint(event.clientX, event.clientY, event.currentTarget);
    if (!word) return;
    const at = (event.target as HTMLElement).closest<HTMLElement>("[data-w]")?.dataset.w;
    if (onSeek && tokens && at !== undefined) return onSeek(tokens[Number(at)].start);
    onWord(word, true);
  }
  return (
    <section ref={reading} id="transcript-text" aria-label="Text of the note" className={`${styles.text} ${styles.reading}`} onClick={tap} data-testid="note-text">
      {words ?? text}
    </section>
  );
}

export type FixScope = "note" | "everywhere";
type Impact = { misspelling: string; everyday_word: boolean; notes: number };

/** What an entry for `heard` would touch (asked while the sheet is open), or null until known. */
function useImpact(open: boolean, heard: string, language?: string): Impact | null {
  const [impact, setImpact] = useState<Impact | null>(null);
  useEffect(() => {
    const misspelling = heard.trim();
    if (!open || !misspelling) return;
    let current = true;
    const timer = setTimeout(() => {
      dictionaryImpact(misspelling, language).then(
        (found) => current && setImpact(found),
        () => current && setImpact(null), // unknown: the sheet just does not warn
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [open, heard, language]);
  return impact && impact.misspelling === heard.trim() ? impact : null;
}

/**
 * "Fix a word": `heard` prefilled (empty: the user types it). Two scopes: only in this note (the
 * text is fixed, nothing is learned) or in every note from now on (a dictionary entry, then the
 * text here). An everyday word of the note's language ("my") is fixed in this note unless the
 * person chooses otherwise, and choosing otherwise says how many of their notes hold it: an
 * entry for it would rewrite what they say, not a word the recognizer gets wrong.
 */
export function FixWordSheet({
  open,
  heard,
  language,
  onClose,
  onFixed,
  onError,
}: {
  open: boolean;
  heard: string;
  language?: string;
  onClose: () => void;
  onFixed: (misspelling: string, correct: string, scope: FixScope) => Promise<void>;
  onError: (message: string) => void;
}) {
  const [saving, setSaving] = useState(false);
  const [typed, setTyped] = useState(heard);
  const [chosen, setChosen] = useState<FixScope | null>(null);
  const [shownFor, setShownFor] = useState(heard);
  if (shownFor !== heard) {
    // A new word: its own spelling and scope (reset while rendering, not in an effect).
    setShownFor(heard);
    setTyped(heard);
    setChosen(null);
  }
  const impact = useImpact(open, typed, language);
  // Known at once (the lists the server uses), so a quick tap on Save never teaches an everyday word.
  const everyday = isEverydayPhrase(typed, language);
  const scope: FixScope = chosen ?? (everyday ? "note" : "everywhere");
  const word = typed.trim();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const misspelling = String(form.get("misspelling") ?? "").trim();
    const correct = String(form.get("correct_spelling") ?? "").trim();
    setSaving(true);
    try {
      if (scope === "everywhere") await addDictionaryEntry({ misspelling, correct_spelling: correct });
      await onFixed(misspelling, correct, scope);
    } catch (err) {
      onError(`Not saved: ${(err as Error).message}`);
    } finally {
      setSaving(false);
    }
  }
  return (
    <Sheet open={open} onClose={onClose} title="Fix a word">
      <form className="stack" onSubmit={submit} key={heard}>
        <Field
          id="dict-misspelling"
          name="misspelling"
          label="Heard as"
          defaultValue={heard}
          required
          maxLength={100}
          autoFocus={!heard}
          autoComplete="off"
          onChange={(e) => setTyped(e.currentTarget.value)}
        />
        <Field id="dict-correct" name="correct_spelling" label="Write it as" required maxLength={200} autoFocus={Boolean(heard)} autoComplete="off" />
        <fieldset className={styles.scopes}>
          <legend className="visually-hidden">Where to fix it</legend>
          <label className={styles.scope}>
            <input type="radio" name="scope" value="note" checked={scope === "note"} onChange={() => setChosen("note")} />
            <span>
              <strong>Only in this note</strong>
              <span className={styles.scopeHint}>Other notes stay as they are.</span>
            </span>
          </label>
          <label className={styles.scope}>
            <input type="radio" name="scope" value="everywhere" checked={scope === "everywhere"} onChange={() => setChosen("everywhere")} />
            <span>
              <strong>In every note from now on</strong>
              <span className={styles.scopeHint}>Added to your dictionary: for a name or term the recognizer keeps getting wrong.</span>
            </span>
          </label>
        </fieldset>
        {everyday && scope === "everywhere" && (
          <Notice tone="warning" icon={<TriangleAlert size={18} aria-hidden="true" />} role="alert" data-testid="everyday-warning">
            “{word}” is an everyday word
            {impact?.notes ? `, in ${impact.notes} of your notes` : ""}. Every note from now on would write your spelling wherever you say
            “{word}”.
          </Notice>
        )}
        <Button type="submit" size="large" block disabled={saving}>
          {scope === "note" ? "Fix in this note" : "Save and fix"}
        </Button>
      </form>
    </Sheet>
  );
}

const FOLLOW_AFTER_SCROLL_MS = 4000;

/** Undoes the spoken word's mark (an effect's clean-up). */
const unmark = (el: HTMLElement) => () => {
  el.classList.remove(playerStyles.spoken);
  el.removeAttribute("aria-current");
};

/** The part of the window not covered by the bars pinned at its top and bottom (`data-pin`). */
function visibleBand(): { top: number; bottom: number } {
  let top = 0;
  let bottom = window.innerHeight;
  for (const bar of document.querySelectorAll<HTMLElement>("[data-pin]")) {
    const box = bar.getBoundingClientRect();
    if (bar.dataset.pin === "top") top = Math.max(top, box.bottom);
    else bottom = Math.min(bottom, box.top);
  }
  return { top, bottom };
}

const scrolling = (): ScrollBehavior => (window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth");

/** The word under a point of a text element, or "" when the point is not on a word (a margin, a space). */
function wordAtPoint(x: number, y: number, within: HTMLElement): string {
  const doc = document as Document & { caretRangeFromPoint?: (x: number, y: number) => Range | null };
  const position = doc.caretPositionFromPoint?.(x, y);
  const range = position ? null : doc.caretRangeFromPoint?.(x, y);
  const node = position?.offsetNode ?? range?.startContainer;
  const offset = position?.offset ?? range?.startOffset ?? 0;
  if (!node || node.nodeType !== Node.TEXT_NODE || !within.contains(node)) return "";
  const text = node.textContent ?? "";
  const word = pickWord(text, offset, offset);
  if (!word) return "";
  // The caret lands at the nearest word even for a tap beside the text: only a tap on the word counts.
  const left = text.slice(0, offset).match(/[\p{L}\p{N}'’-]*$/u)?.[0].length ?? 0;
  const start = text.indexOf(word, Math.max(0, offset - left));
  if (start < 0) return word;
  const box = new Range();
  box.setStart(node, start);
  box.setEnd(node, start + word.length);
  const hit = [...box.getClientRects()].some((r) => x >= r.left - 4 && x <= r.right + 4 && y >= r.top - 4 && y <= r.bottom + 4);
  return hit ? word : "";
}
