"use client";

import { TriangleAlert } from "lucide-react";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { dictionaryImpact } from "@/app/_lib/api.ts";
import { placesOf, type FixScope, type WordFix } from "@/app/_lib/notes/fix-word.ts";
import { isEverydayPhrase } from "@/lib/dictionary/common-words.ts";
import { Button, Field, Notice, Sheet } from "@/app/_ui/index.ts";
import styles from "../note.module.css";

// "Fix a word" (the pattern of Letterly and AudioPen: one tap on a word opens it). Before Save it
// says how many places of the note hold the word, and offers the tapped one only, all of them, or
// every note from now on (a dictionary entry). The caller fixes the text and offers Undo.

/** The word offered for fixing (and where the tapped one starts), and whether the sheet is open. */
export function useFixWord() {
  const [picked, setPickedWord] = useState("");
  const [at, setAt] = useState<number | null>(null);
  const [open, setOpen] = useState(false);
  const setPicked = useCallback((word: string, where: number | null = null) => {
    setPickedWord(word);
    setAt(where);
  }, []);
  /** From ReadingText: a tapped word opens the sheet, selected words are only offered. */
  const onWord = useCallback(
    (word: string, andOpen: boolean, where: number | null = null) => {
      setPicked(word, where);
      if (andOpen) setOpen(true);
    },
    [setPicked],
  );
  const close = useCallback(() => {
    setOpen(false);
    setPicked("");
  }, [setPicked]);
  return { picked, at, setPicked, open, show: () => setOpen(true), onWord, close };
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

type Impact = { misspelling: string; everyday_word: boolean; notes: number };

/**
 * What an entry for `heard` would touch (asked while the sheet is open), or null until known. The
 * word the sheet opened on is asked at once (its answer picks the scope shown); typing waits a beat.
 */
function useImpact(open: boolean, heard: string, language?: string, first = ""): Impact | null {
  const [impact, setImpact] = useState<Impact | null>(null);
  useEffect(() => {
    const misspelling = heard.trim();
    if (!open || !misspelling) return;
    const wait = misspelling === first.trim() ? 0 : 250;
    let current = true;
    const timer = setTimeout(() => {
      dictionaryImpact(misspelling, language).then(
        (found) => current && setImpact(found),
        () => current && setImpact(null), // unknown: the sheet just does not warn
      );
    }, wait);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [open, heard, language, first]);
  return impact && impact.misspelling === heard.trim() ? impact : null;
}

const times = (n: number) => (n === 1 ? "once" : n === 2 ? "twice" : `${n} times`);

/**
 * The sheet. `text`: the note's text as shown; `at`: where the tapped word starts in it (null when
 * the word was typed or selected). It opens on the narrowest likely fix, never on every note: a
 * common word ("my", "blows", "greatly": the server's list of the most spoken words, else the
 * everyday words this page holds) is fixed where it was tapped, a name or a term in the whole note.
 * Every note is a choice; for a common word it says how many of their notes hold it: an entry for
 * it would rewrite what they say, not a word the recognizer gets wrong.
 */
export function FixWordSheet({
  open,
  heard,
  at,
  text,
  language,
  onClose,
  onFix,
}: {
  open: boolean;
  heard: string;
  at: number | null;
  text: string;
  language?: string;
  onClose: () => void;
  onFix: (fix: WordFix) => Promise<void>;
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
  const impact = useImpact(open, typed, language, heard);
  const word = typed.trim();
  const places = placesOf(text, word);
  const tapped = at !== null && places.includes(at);
  // The everyday words are known at once; the server's answer adds the rest of the common ones.
  const everyday = impact?.everyday_word ?? isEverydayPhrase(typed, language);
  const offered: FixScope[] = [...(tapped && places.length > 1 ? (["one"] as const) : []), "note", "everywhere"];
  const fallback: FixScope = everyday && tapped && places.length > 1 ? "one" : "note";
  const scope: FixScope = chosen && offered.includes(chosen) ? chosen : fallback;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const misspelling = String(form.get("misspelling") ?? "").trim();
    const correct = String(form.get("correct_spelling") ?? "").trim();
    setSaving(true);
    try {
      await onFix({ misspelling, correct, scope, at: scope === "one" ? at : null });
    } finally {
      setSaving(false);
    }
  }
  const label: Record<FixScope, { title: string; hint: string; action: string }> = {
    one: { title: "Only this one", hint: "The word you tapped; the others stay.", action: "Fix this one" },
    note: {
      title: places.length > 1 ? `All ${places.length} in this note` : "Only in this note",
      hint: "Other notes stay as they are.",
      action: places.length > 1 ? `Fix all ${places.length}` : "Fix in this note",
    },
    everywhere: {
      title: "In every note from now on",
      hint: `Added to your dictionary: for a name or term the recognizer keeps getting wrong.${places.length > 1 ? ` Fixes all ${places.length} here too.` : ""}`,
      action: "Save and fix",
    },
  };
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
          data-autofocus={heard ? undefined : true}
          autoComplete="off"
          onChange={(e) => setTyped(e.currentTarget.value)}
        />
        <Field id="dict-correct" name="correct_spelling" label="Write it as" required maxLength={200} data-autofocus={heard ? true : undefined} autoComplete="off" />
        {word && (
          <p className={styles.scopeCount} data-testid="fix-count" aria-live="polite">
            {places.length ? `“${word}” is in this note ${times(places.length)}.` : `“${word}” is not in this note.`}
          </p>
        )}
        <fieldset className={styles.scopes}>
          <legend className="visually-hidden">Where to fix it</legend>
          {offered.map((value) => (
            <label key={value} className={styles.scope}>
              <input type="radio" name="scope" value={value} checked={scope === value} onChange={() => setChosen(value)} />
              <span>
                <strong>{label[value].title}</strong>
                <span className={styles.scopeHint}>{label[value].hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {everyday && scope === "everywhere" && (
          <Notice tone="warning" icon={<TriangleAlert size={18} aria-hidden="true" />} role="alert" data-testid="everyday-warning">
            “{word}” is a common word
            {impact?.notes ? `, in ${impact.notes} of your notes` : ""}. Every note from now on would write your spelling wherever you say
            “{word}”.
          </Notice>
        )}
        <Button type="submit" size="large" block disabled={saving}>
          {label[scope].action}
        </Button>
      </form>
    </Sheet>
  );
}
