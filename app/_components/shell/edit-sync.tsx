"use client";

import { useEffect } from "react";
import { flushEdits } from "@/app/_lib/notes/edit-queue.ts";
import { flushLabels } from "@/app/_lib/notes/label-queue.ts";
import { whenIdle } from "@/app/_lib/idle.ts";

/** Sends note edits, tags and pins made offline as soon as the app is open and online, whatever page is shown. */
export function EditSync() {
  useEffect(() => {
    const flush = () => {
      void flushEdits().catch(() => undefined);
      void flushLabels().catch(() => undefined);
    };
    const cancel = whenIdle(flush); // after the first paint: nothing here is urgent
    window.addEventListener("online", flush);
    return () => {
      cancel();
      window.removeEventListener("online", flush);
    };
  }, []);
  return null;
}
