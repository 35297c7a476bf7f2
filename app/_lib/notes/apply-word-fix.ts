import { addDictionaryEntry, deleteDictionaryEntry } from "@/app/_lib/api.ts";
import { fixMessage, type WordFix } from "@/app/_lib/notes/fix-word.ts";

import type { ToastAbout, ToastShow } from "@/app/_ui/index.ts";

/**
 * Runs a fix the person asked for and offers Undo, whatever its scope: "every note" first adds the
 * dictionary entry; `apply` fixes the text in front of them and says how many places changed;
 * Undo takes the entry back and `revert` puts the text back as it was. `about`: the text (and the
 * suggestions under it), which its messages must not cover.
 */
export async function applyWordFix(
  fix: WordFix,
  { apply, revert, toast: show, about }: { apply: () => Promise<number>; revert: () => Promise<void>; toast: ToastShow; about?: ToastAbout },
) {
  const toast = (text: string, action?: { label: string; onClick: () => void }) => show(text, action, { about });
  const learns = fix.scope === "everywhere";
  let count: number;
  try {
    if (learns) await addDictionaryEntry({ misspelling: fix.misspelling, correct_spelling: fix.correct });
    count = await apply();
  } catch (err) {
    toast(`Not saved: ${(err as Error).message}`);
    return;
  }
  if (!count && !learns) return toast(fixMessage(fix, 0));
  toast(fixMessage(fix, count), {
    label: "Undo",
    onClick: async () => {
      try {
        if (learns) await deleteDictionaryEntry(fix.misspelling);
        if (count) await revert();
        toast(learns ? `Undone: “${fix.misspelling}” is no longer in your dictionary${count ? ", and the note is as it was" : ""}.` : "Undone: the note is as it was.");
      } catch (err) {
        toast(`Not undone: ${(err as Error).message}`);
      }
    },
  });
}
