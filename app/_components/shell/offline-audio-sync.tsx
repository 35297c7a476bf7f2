"use client";

import { useEffect } from "react";
import { syncOfflineAudio } from "@/app/_lib/notes/offline-audio.ts";
import { whenIdle } from "@/app/_lib/idle.ts";

const EVERY_MS = 10 * 60_000;
// The first sync waits a little after the page settles: it lists 100 notes and reads this phone's
// storage, work that can wait while the person starts doing what they opened the app for.
const FIRST_AFTER_MS = 5000;

/** Keeps the newest notes' recordings on the phone (within Settings → This phone's budget), whatever page is open. */
export function OfflineAudioSync() {
  useEffect(() => {
    const sync = () => void syncOfflineAudio();
    const cancel = whenIdle(sync, { afterMs: FIRST_AFTER_MS });
    const timer = setInterval(sync, EVERY_MS);
    window.addEventListener("online", sync);
    return () => {
      cancel();
      clearInterval(timer);
      window.removeEventListener("online", sync);
    };
  }, []);
  return null;
}
