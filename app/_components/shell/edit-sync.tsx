"use client";

import { useEffect } from "react";
import { flushEdits } from "@/app/_lib/edit-queue.ts";

/** Sends note edits made offline as soon as the app is open and online, whatever page is shown. */
export function EditSync() {
  useEffect(() => {
    const flush = () => void flushEdits().catch(() => undefined);
    flush();
    window.addEventListener("online", flush);
    return () => window.removeEventListener("online", flush);
  }, []);
  return null;
}
