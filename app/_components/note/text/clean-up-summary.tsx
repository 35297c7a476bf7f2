"use client";

import { ChevronRight, Sparkles } from "lucide-react";
import { useState } from "react";
import type { Transcription } from "@/app/_lib/api.ts";
import { isEdited } from "@/app/_lib/notes/note-text.ts";
import { Button, Notice, Sheet } from "@/app/_ui/index.ts";
import styles from "../note.module.css";
import { cleanUpDid } from "@/app/_components/note/text/clean-up-did.ts";

// What the clean-up changed, where the cleaned text is what the note shows: "Cleaned up: 6 words",
// the changes on a tap, and the way back to the recognized words. Nothing a person said is
// changed without them seeing it (a model's clean-up that did not keep the note was not used,
// and the sheet says why).

type Change = { recognized: string; cleaned: string };

const wordCount = (s: string) => (s ? s.split(/\s+/).length : 0);

/** How many words a clean-up changed: each run's longer side. */
export function changedWords(changes: Change[]): number {
  return changes.reduce((sum, c) => sum + Math.max(wordCount(c.recognized), wordCount(c.cleaned)), 0);
}

export function CleanUpSummary({ note, onUseRecognized, disabled }: { note: Transcription; onUseRecognized: () => Promise<void>; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const optimization = note.optimization;
  if (!optimization || optimization.status !== "completed" || !optimization.text || isEdited(note)) return null;
  const changes = optimization.changes ?? [];
  const words = changedWords(changes);
  const label = words ? `Cleaned up: ${words} ${words === 1 ? "word" : "words"}` : "Cleaned up: punctuation and capitals";
  return (
    <>
      <button type="button" className={styles.cleanUp} onClick={() => setOpen(true)} data-testid="clean-up-summary">
        <Sparkles size={16} aria-hidden="true" />
        <span>
          {label}
          {optimization.rejected_reason && <span className={styles.cleanUpKept}> · your words kept</span>}
        </span>
        <ChevronRight size={18} aria-hidden="true" />
      </button>
      <Sheet open={open} onClose={() => setOpen(false)} title="What the clean-up changed">
        <div className="stack">
          {optimization.rejected_reason && (
            <Notice tone="info" data-testid="clean-up-rejected">
              {optimization.rejected_reason}
            </Notice>
          )}
          <p className="muted" data-testid="clean-up-did">
            {cleanUpDid(note.text, optimization.text, changes.length > 0)}
          </p>
          {changes.length > 0 && (
            <ul className={styles.changes} aria-label="Changed words">
              {changes.map((c, i) => (
                <li key={i}>
                  <del>{c.recognized || "—"}</del>
                  <span aria-hidden="true">→</span>
                  <ins>{c.cleaned || "removed"}</ins>
                </li>
              ))}
            </ul>
          )}
          <Button
            variant="secondary"
            block
            disabled={disabled || busy}
            onClick={async () => {
              setBusy(true);
              try {
                await onUseRecognized();
                setOpen(false);
              } finally {
                setBusy(false);
              }
            }}
          >
            Use the recognized text
          </Button>
        </div>
      </Sheet>
    </>
  );
}
