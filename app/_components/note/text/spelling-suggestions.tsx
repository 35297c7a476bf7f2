"use client";

import { addDictionaryEntry } from "@/app/_lib/api.ts";
import type { Suggestion } from "@/app/_lib/notes/use-autosave.ts";
import { Button } from "@/app/_ui/index.ts";
import styles from "../note.module.css";

/** Words the person respelled in the editor, offered as dictionary entries with one tap. */
export function SpellingSuggestions({
  suggestions,
  onAccepted,
  toast,
}: {
  suggestions: Suggestion[];
  onAccepted: (s: Suggestion) => void;
  toast: (text: string) => void;
}) {
  if (!suggestions.length) return null;
  async function accept(s: Suggestion) {
    try {
      await addDictionaryEntry(s);
      onAccepted(s);
      toast(`“${s.misspelling}” will be written “${s.correct_spelling}” from now on.`);
    } catch (err) {
      toast(`Not saved: ${(err as Error).message}`);
    }
  }
  return (
    <section aria-label="Spelling suggestions" id="spelling-suggestions" className={styles.suggestions}>
      <p className={styles.suggestionsTitle}>Always spell these your way?</p>
      {suggestions.map((s) => (
        <Button key={`${s.misspelling}→${s.correct_spelling}`} variant="secondary" onClick={() => void accept(s)}>
          “{s.misspelling}” → “{s.correct_spelling}”
        </Button>
      ))}
    </section>
  );
}
