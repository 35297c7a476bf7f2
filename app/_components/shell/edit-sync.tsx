"use client";

import { useEffect } from "react";
import { flushEdits } from "@/app/_lib/notes/edit-queue.ts";
import { flushLabels } from "@/app/_lib/notes/label-queue.ts";
import { whenIdle } from "@/app/_lib/idle.ts";

// A send that finds no connection though the browser says it is online (the "online" event can
// come a moment before requests get through, or the network drops them) is tried again after
// these waits, then every minute while something waits.
const RETRY_SECONDS = [2, 5, 15, 30, 60];

/** Sends note edits, tags and pins made offline as soon as the app is open and online, whatever page is shown. */
export function EditSync() {
  useEffect(() => {
    let retry: ReturnType<typeof setTimeout> | undefined;
    let tries = 0;
    const flush = async () => {
      clearTimeout(retry);
      const [edits, labels] = await Promise.all([flushEdits(), flushLabels()]).catch(() => [{ offline: true }, { offline: true }]);
      if (!edits.offline && !labels.offline) tries = 0;
      else if (navigator.onLine) retry = setTimeout(() => void flush(), RETRY_SECONDS[Math.min(tries++, RETRY_SECONDS.length - 1)] * 1000);
    };
    const online = () => {
      tries = 0;
      void flush();
    };
    const cancel = whenIdle(() => void flush()); // after the first paint: nothing here is urgent
    window.addEventListener("online", online);
    return () => {
      cancel();
      clearTimeout(retry);
      window.removeEventListener("online", online);
    };
  }, []);
  return null;
}
