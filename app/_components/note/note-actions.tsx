"use client";

import { Ellipsis } from "lucide-react";
import { useRef, useState, type ReactNode } from "react";
import { Button, IconButton, Sheet, useToastsAbove } from "@/app/_ui/index.ts";
import styles from "./note.module.css";

// What one does with a note, pinned above the tab bar: a line saying what a tap on a word does
// (and whether the text is saved), then one row: the note's own buttons (Edit, Fix a word, the
// primary Make posts) and "More", a sheet with the rest as a list. A new action for a note is one
// more entry in that list; the row stays one row at 360 px.

export type NoteAction = {
  id: string;
  label: string;
  icon: ReactNode;
  onSelect: () => void;
  disabled?: boolean;
  danger?: boolean;
};

export function NoteActionBar({ hint, status, more = [], children }: { hint: ReactNode; status?: ReactNode; more?: NoteAction[]; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const bar = useRef<HTMLDivElement>(null);
  useToastsAbove(bar);
  return (
    <div ref={bar} className={styles.actionBar} data-pin="bottom" data-testid="note-actions">
      <p className={styles.under}>
        <span data-testid="note-hint">{hint}</span>
        {status}
      </p>
      <div className={styles.actions}>
        {children}
        {more.length > 0 && <IconButton label="More" icon={<Ellipsis size={20} aria-hidden="true" />} variant="secondary" onClick={() => setOpen(true)} data-testid="note-more" />}
      </div>
      <Sheet open={open} onClose={() => setOpen(false)} title="This note">
        <ul className={styles.menu}>
          {more.map((action) => (
            <li key={action.id}>
              <Button
                variant="ghost"
                block
                className={`${styles.menuItem} ${action.danger ? styles.delete : ""}`}
                disabled={action.disabled}
                onClick={() => {
                  setOpen(false);
                  action.onSelect();
                }}
                data-testid={`${action.id}-note`}
              >
                {action.icon} {action.label}
              </Button>
            </li>
          ))}
        </ul>
      </Sheet>
    </div>
  );
}
