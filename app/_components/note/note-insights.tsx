"use client";

import { ChevronDown, ListChecks, Sparkles } from "lucide-react";
import { useState } from "react";
import { tickActionItems, type Transcription } from "@/app/_lib/api.ts";
import styles from "./insights.module.css";

/**
 * What the note says at a glance, above its text: the summary, the key points (folded away) and
 * the action items as checkboxes. A tick shows at once and is stored; if storing fails it is
 * undone and the toast says why. A recording in parts passes every part's note: their summaries,
 * key points and to-dos read in order as one, and each tick is stored on the part it came from.
 */
export function NoteInsights({
  notes,
  onChanged,
  onError,
  disabled,
}: {
  notes: Transcription[];
  onChanged: (note: Transcription) => void;
  onError: (message: string) => void;
  disabled?: boolean;
}) {
  // Ticks shown before the server has them (by part and item text).
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const withInsights = notes.filter((note) => note.insights);
  if (!withInsights.length) return null;
  const insights = {
    summary: once(withInsights.map((note) => note.insights!.summary)).join(" "),
    key_points: once(withInsights.flatMap((note) => note.insights!.key_points)),
  };
  const items = withInsights.flatMap((note) => note.insights!.action_items.map((item) => ({ ...item, noteId: note.id, key: `${note.id} ${item.text}` })));
  type Item = (typeof items)[number];

  async function toggle(item: Item) {
    const done = !(pending[item.key] ?? item.done);
    setPending((p) => ({ ...p, [item.key]: done }));
    try {
      onChanged(await tickActionItems(item.noteId, [{ text: item.text, done }]));
    } catch (err) {
      onError(`Not saved: ${(err as Error).message}`);
    } finally {
      setPending(({ [item.key]: _settled, ...rest }) => rest);
    }
  }

  const left = items.filter((item) => !(pending[item.key] ?? item.done)).length;
  // Being written again for the note's text now (an edit, the text heard again, the writer's on its
  // way): what shows stays until then, and says so (issue 69 item 6).
  const updating = notes.some((note) => note.insights_pending);
  return (
    <section className={styles.insights} aria-label="Summary and to-dos" data-testid="note-insights">
      {insights.summary && (
        <div className={styles.block}>
          <h2 className={styles.heading}>
            <Sparkles size={16} aria-hidden="true" /> Summary
            {updating && (
              <span className={styles.count} role="status" data-testid="insights-updating">
                Updating…
              </span>
            )}
          </h2>
          <p className={styles.summary} id="note-summary" data-testid="insights-summary">
            {insights.summary}
          </p>
        </div>
      )}
      {insights.key_points.length > 0 && (
        <details className={styles.points}>
          <summary className={styles.pointsToggle}>
            <span>Key points ({insights.key_points.length})</span>
            <ChevronDown size={18} aria-hidden="true" className={styles.chevron} />
          </summary>
          <ul className={styles.pointList}>
            {insights.key_points.map((point, i) => (
              <li key={i}>{point}</li>
            ))}
          </ul>
        </details>
      )}
      {items.length > 0 && (
        <div className={styles.block}>
          <h2 className={styles.heading}>
            <ListChecks size={16} aria-hidden="true" /> To do
            <span className={styles.count}>{left === 0 ? "all done" : `${left} left`}</span>
          </h2>
          <ul className={styles.todos} data-testid="action-items">
            {items.map((item) => {
              const done = pending[item.key] ?? item.done;
              return (
                <li key={item.key}>
                  <label className={styles.todo} data-done={done || undefined}>
                    <input type="checkbox" checked={done} disabled={disabled} onChange={() => void toggle(item)} />
                    <span>{item.text}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </section>
  );
}

/** The texts, empty ones and ones said before (case and punctuation aside) left out: parts of one recording can repeat each other. */
function once(texts: string[]): string[] {
  const seen = new Set<string>();
  return texts.filter((text) => {
    const key = text.toLocaleLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
