"use client";

import { X } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { IconButton } from "./button.tsx";
import styles from "./ui.module.css";

/**
 * A bottom sheet on phones, a dialog on wider screens. The native <dialog> gives the focus trap,
 * Escape and the top layer without a library or any injected style (a strict CSP stays happy).
 * The element marked `data-autofocus` in `children` has the focus once it opens (else the ✕).
 */
export function Sheet({ open, onClose, title, children }: { open: boolean; onClose: () => void; title: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal() focuses the first control, the ✕. A sheet that is for typing marks its field
      // (data-autofocus), and it gets the focus instead; React's autoFocus cannot: it focuses the
      // field while the dialog is still closed, before this effect opens it.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={styles.sheet}
      aria-labelledby="sheet-title"
      onClose={onClose}
      onClick={(e) => e.target === ref.current && onClose()}
    >
      {open && (
        <div className={styles.sheetBody}>
          <div className={styles.sheetHandle} />
          <div className={styles.sheetHeader}>
            <h2 id="sheet-title" className={styles.sheetTitle}>
              {title}
            </h2>
            <IconButton label="Close" icon={<X size={22} aria-hidden="true" />} onClick={onClose} />
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
