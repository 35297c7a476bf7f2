"use client";

import type { KeyboardEvent } from "react";
import styles from "./ui.module.css";

/** A segmented tab list; the caller renders the panel with id `${id}-panel` and aria-labelledby `${id}-${value}`. */
export function Tabs<T extends string>({ id, label, value, options, onChange }: { id: string; label: string; value: T; options: { value: T; label: string }[]; onChange: (value: T) => void }) {
  function onKey(event: KeyboardEvent) {
    const i = options.findIndex((o) => o.value === value);
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    const next = options[(i + step + options.length) % options.length];
    onChange(next.value);
    document.getElementById(`${id}-${next.value}`)?.focus();
  }
  return (
    <div className={styles.tabs} role="tablist" aria-label={label} onKeyDown={onKey}>
      {options.map((o) => (
        <button
          key={o.value}
          id={`${id}-${o.value}`}
          type="button"
          role="tab"
          className={styles.tab}
          aria-selected={o.value === value}
          aria-controls={`${id}-panel`}
          tabIndex={o.value === value ? 0 : -1}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
