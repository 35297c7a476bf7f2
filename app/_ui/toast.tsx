"use client";

import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from "react";
import styles from "./ui.module.css";

/**
 * What a toast is about (the text it fixed, the title and summary that changed): it must not cover
 * them. Listed most important first: where no place is clear of all, the toast keeps clear of the
 * first it can (a changed title and summary, a few lines, before the long text around them).
 */
export type ToastAbout = () => (Element | null | undefined)[];
/** `topic`: a toast about the same thing as one on screen takes its place ("Undone", then no stale "Undo"). */
export type ToastOptions = { about?: ToastAbout; topic?: string };
type Toast = { id: number; text: string; action?: { label: string; onClick: () => void }; about?: ToastAbout; topic?: string };
type Show = (text: string, action?: Toast["action"], options?: ToastOptions) => void;
export type ToastShow = Show;
type Place = "bottom" | "top";

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
 * on it reaches what is underneath ("“Spare” deleted." sat on New style for 8 s). A toast never
 * covers what it is about (issue 57: "Fixed 1 place" sat over the text it fixed): when that is
 * behind the bottom place, the toasts move under the top bar, whichever covers less of it.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [place, setPlace] = useState<Place>("bottom");
  const stack = useRef<HTMLDivElement>(null);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const about = toasts.findLast((t) => t.about)?.about;
  useLayoutEffect(() => {
    const element = stack.current;
    // Measured where it is drawn before the person sees it: the place is chosen before paint.
    if (element) setPlace(about ? placeAway(element, about().filter((e): e is Element => !!e)) : "bottom");
  }, [about, toasts.length]);
  const show = useCallback<Show>(
    (text, action, options) => {
      const id = Date.now() + Math.random();
      const topic = options?.topic;
      setToasts((all) => [...all.filter((t) => !topic || t.topic !== topic).slice(-2), { id, text, action, about: options?.about, topic }]);
      setTimeout(() => dismiss(id), action ? SHOWN_WITH_ACTION_MS : SHOWN_MS);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div ref={stack} className={`${styles.toasts} ${place === "top" ? styles.toastsTop : ""}`} role="status" aria-live="polite" data-place={place}>
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

/** How many pixels of `rects` a band from `top` to `bottom` (the width of the page) covers. */
function overlap(rects: DOMRect[], top: number, bottom: number): number {
  return rects.reduce((sum, r) => sum + Math.max(0, Math.min(bottom, r.bottom) - Math.max(top, r.top)) * r.width, 0);
}

/** Where the toasts cover least of `about`: their place at the bottom, else under the top bar. */
function placeAway(stack: HTMLElement, about: Element[]): Place {
  const rects = about.map((e) => e.getBoundingClientRect()).filter((r) => r.width && r.height);
  if (!rects.length || !stack.firstElementChild) return "bottom";
  // Tried in each place before paint (the layout is read at once; nothing is drawn in between).
  const covered = (place: Place) => {
    stack.classList.toggle(styles.toastsTop, place === "top");
    const { top, bottom } = stack.getBoundingClientRect();
    return rects.map((r) => overlap([r], top, bottom));
  };
  const atBottom = covered("bottom");
  let best: Place = "bottom";
  if (atBottom.some(Boolean)) {
    const atTop = covered("top");
    // The first element one place covers and the other covers less of decides (most important first).
    const first = atBottom.findIndex((pixels, i) => pixels !== atTop[i]);
    if (first >= 0 && atTop[first] < atBottom[first]) best = "top";
  }
  stack.classList.toggle(styles.toastsTop, best === "top");
  return best;
}
