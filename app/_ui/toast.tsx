"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode, type RefObject } from "react";
import styles from "./ui.module.css";

type Toast = { id: number; text: string; action?: { label: string; onClick: () => void } };
type Show = (text: string, action?: Toast["action"]) => void;

const ToastContext = createContext<Show>(() => undefined);
// A message alone is read in a glance; one with an action ("Undo") stays long enough to reach it.
const SHOWN_MS = 5000;
const SHOWN_WITH_ACTION_MS = 8000;

/**
 * Toasts rise above `bar`, a bar of actions pinned above the tab bar (a note's), while it is on
 * screen: a toast must not cover what the person taps next ("Saved note.md", then More again).
 */
export function useToastsAbove(bar: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty("--pinned-bottom-h", `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty("--pinned-bottom-h");
    };
  }, [bar]);
}

/**
 * Short messages over the tab bar (and over a bar pinned above it), with at most one action
 * ("Open", "Undo"). A toast never stops a tap: only its action takes one, and a tap anywhere else
 * on it reaches what is underneath ("“Spare” deleted." sat on New style for 8 s).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback<Show>(
    (text, action) => {
      const id = Date.now() + Math.random();
      setToasts((all) => [...all.slice(-2), { id, text, action }]);
      setTimeout(() => dismiss(id), action ? SHOWN_WITH_ACTION_MS : SHOWN_MS);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className={styles.toasts} role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={styles.toast} data-testid="toast">
            <span className={styles.toastText}>{t.text}</span>
            {t.action && (
              <button
                type="button"
                className={styles.toastAction}
                onClick={() => {
                  dismiss(t.id);
                  t.action!.onClick();
                }}
              >
                {t.action.label}
              </button>
            )}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
