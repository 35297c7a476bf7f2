"use client";

import { ChevronDown, ListChecks, Sparkles } from "lucide-react";
import { useState } from "react";
import { tickActionItems, type ActionItem, type Transcription } from "@/app/_lib/api.ts";
import styles from "./insights.module.css";

/**
 * What the note says at a glance, above its text: the summary, the key points (folded away) and
 * the action items as checkboxes. A tick shows at once and is stored; if storing fails it is
 * undone and the toast says why.
 */
export function NoteInsights({
  note,
  onChanged,
  onError,
  disabled,
}: {
  note: Transcription;
  onChanged: (note: Transcription) => void;
  onError: (message: string) => void;
  disabled?: boolean;
}) {
  // Ticks shown before the server has them (by item text).
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const insights = note.insights;
  if (!insights) return null;
  const items = insights.action_items;

  async function toggle(item: ActionItem) {
    const done = !(pending[item.text] ?? item.done);
    setPending((p) => ({ ...p, [item.text]: done }));
    try {
      onChanged(await tickActionItems(note.id, [{ text: item.text, done }]));
    } catch (err) {
      onError(`Not saved: ${(err as Error).message}`);
    } finally {
      setPending(({ [item.text]: _settled, ...rest }) => rest);
    }
  }

  const left = items.filter((item) => !(pending[item.text] ?? item.done)).length;
  return (
    <section className={styles.insights} aria-label="Summary and to-dos" data-testid="note-insights">
      {insights.summary && (
        <div className={styles.block}>
          <h2 className={styles.heading}>
            <Sparkles size={16} aria-hidden="true" /> Summary
          </h2>
          <p className={styles.summary} data-testid="insights-summary">
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
            {insights.key_points.map((point) => (
              <li key={point}>{point}</li>
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
              const done = pending[item.text] ?? item.done;
              return (
                <li key={item.text}>
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
