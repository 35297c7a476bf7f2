"use client";

import type { ReactNode } from "react";
import { Tabs } from "@/app/_ui/index.ts";
import styles from "../note.module.css";

export type NoteView = "text" | "original";

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
