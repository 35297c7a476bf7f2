"use client";

import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * A date in the reader's own time zone and language. The server knows neither, so the HTML (and
 * hydration, which must match it) shows the date in UTC; the browser's local form replaces it
 * right after. Without this, a server-rendered date would not match the browser's and React
 * would throw away the page's HTML to render it again.
 */
export function LocalTime({ iso, time = true }: { iso: string; time?: boolean }) {
  const local = useSyncExternalStore(never, () => true, () => false);
  const style: Intl.DateTimeFormatOptions = time ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  const text = new Date(iso).toLocaleString(local ? undefined : "en-US", local ? style : { ...style, timeZone: "UTC" });
  return <time dateTime={iso}>{text}</time>;
}
