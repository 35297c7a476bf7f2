"use client";

import { useSyncExternalStore } from "react";
import { whenIdle } from "@/app/_lib/idle.ts";

/**
 * A date in the reader's own time zone and language. The server knows neither, so the HTML (and
 * hydration, which must match it) shows the date in UTC; the browser's local form replaces it
 * once the page is idle. Without this, a server-rendered date would not match the browser's and
 * React would throw away the page's HTML to render it again.
 *
 * The UTC form is written out by hand, not with Intl: a page's first Intl formatter loads the
 * browser's locale data (20-60 ms on a small phone-class CPU), which would otherwise lengthen
 * hydration; the local form pays it later (en-US not at all), in an idle moment, in one
 * re-render of every date.
 */
export function LocalTime({ iso, time = true }: { iso: string; time?: boolean }) {
  const local = useSyncExternalStore(onLocalReady, isLocalReady, () => false);
  const date = new Date(iso);
  return <time dateTime={iso}>{local ? localText(date, time) : utcText(date, time)}</time>;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** en-US's medium date (and short time), "Nov 27, 2026, 1:05 AM", from the date's parts. */
function enUsText(year: number, month: number, day: number, hours: number, minutes: number, time: boolean): string {
  const date = `${MONTHS[month]} ${day}, ${year}`;
  return time ? `${date}, ${hours % 12 || 12}:${String(minutes).padStart(2, "0")} ${hours < 12 ? "AM" : "PM"}` : date;
}

/** As en-US's medium date (and short time) in UTC: "Nov 27, 2026, 1:05 AM". */
export function utcText(date: Date, time = true): string {
  return enUsText(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), time);
}

/** In the reader's time zone and language; en-US (the app's own language) needs no locale data. */
function localText(date: Date, time: boolean): string {
  if (navigator.language !== "en-US") return formatter(time).format(date);
  return enUsText(date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(), time);
}

// One formatter per form, made once: toLocaleString would build (and throw away) one per date.
const formats = new Map<boolean, Intl.DateTimeFormat>();
function formatter(time: boolean): Intl.DateTimeFormat {
  let format = formats.get(time);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, time ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" });
    formats.set(time, format);
  }
  return format;
}

// The local form is used from the first idle moment after the load on (for the rest of the visit).
let localReady = false;
let scheduled = false;
const listeners = new Set<() => void>();
const isLocalReady = () => localReady;
function onLocalReady(listener: () => void): () => void {
  listeners.add(listener);
  if (!scheduled) {
    scheduled = true;
    whenIdle(() => {
      localReady = true;
      for (const notify of listeners) notify();
    });
  }
  return () => listeners.delete(listener);
}
