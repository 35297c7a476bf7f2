"use client";

import { useEffect } from "react";
import { syncOfflineAudio } from "@/app/_lib/notes/offline-audio.ts";
import { whenIdle } from "@/app/_lib/service-worker.ts";

const EVERY_MS = 10 * 60_000;

/** Keeps the newest notes' recordings on the phone (within Settings → This phone's budget), whatever page is open. */
export function OfflineAudioSync() {
  useEffect(() => {
    const sync = () => void syncOfflineAudio();
    const cancel = whenIdle(sync);
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
