"use client";

import { useSyncExternalStore } from "react";

const never = () => () => {};

// One formatter per form, made once: a date formatted with toLocaleString builds (and throws away)
// a new formatter every time, which costs more than the rest of a list row's render.
const formats = new Map<string, Intl.DateTimeFormat>();
function formatter(local: boolean, time: boolean): Intl.DateTimeFormat {
  const key = `${local}:${time}`;
  let format = formats.get(key);
  if (!format) {
    const style: Intl.DateTimeFormatOptions = time ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
    format = new Intl.DateTimeFormat(local ? undefined : "en-US", local ? style : { ...style, timeZone: "UTC" });
    formats.set(key, format);
  }
  return format;
}

/**
 * A date in the reader's own time zone and language. The server knows neither, so the HTML (and
 * hydration, which must match it) shows the date in UTC; the browser's local form replaces it
 * right after. Without this, a server-rendered date would not match the browser's and React
 * would throw away the page's HTML to render it again.
 */
export function LocalTime({ iso, time = true }: { iso: string; time?: boolean }) {
  const local = useSyncExternalStore(never, () => true, () => false);
  return <time dateTime={iso}>{formatter(local, time).format(new Date(iso))}</time>;
}
