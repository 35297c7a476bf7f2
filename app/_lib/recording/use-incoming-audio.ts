"use client";

import { useEffect, useRef } from "react";
import { recoverInterruptedRecordings } from "@/app/_lib/recording/recorder.ts";
import { listUploads } from "@/app/_lib/recording/upload-queue.ts";
import { trackUpload } from "@/app/_lib/recording/recording-progress.ts";

// What reaches the Record page from outside it: a file shared into the app (the service worker
// queued it and says so in the address), a recording cut short by a closed tab (recovered from
// this phone and queued), and files opened with the app ("Open with Voicedraft", the manifest's
// file_handlers, where the browser has them), which go the way of a picked file.

const SHARE_PROBLEMS: Record<string, string> = {
  none: "Nothing to transcribe was shared: share an audio file (a voice memo) with Voicedraft.",
  "signed-out": "Sign in first, then share the file with Voicedraft again.",
  failed: "The shared file could not be kept on this phone; share it again, or choose it below.",
  retry: "Voicedraft was not ready to receive files yet. Share the file again, or choose it below.",
};

type Message = { ok: boolean; text: string };
type LaunchQueue = { setConsumer(consumer: (params: { files: { getFile(): Promise<File> }[] }) => void): void };

export function useIncomingAudio(owner: string, on: { onMessage: (message: Message) => void; onFile: (file: File) => Promise<void>; onQueued: () => void }) {
  const handlers = useRef(on);
  useEffect(() => {
    handlers.current = on;
  });

  // Arrived from the share sheet: show the shared file's progress (or why nothing came).
  useEffect(() => {
    const shared = new URLSearchParams(window.location.hash.slice(1)).get("shared");
    if (!shared) return;
    history.replaceState(history.state, "", window.location.pathname + window.location.search);
    const problem = SHARE_PROBLEMS[shared];
    if (problem) return handlers.current.onMessage({ ok: false, text: problem });
    void listUploads(owner).then((items) => {
      const batch = items.filter((item) => item.batchId === shared);
      if (batch.length) trackUpload(owner, batch);
    });
  }, [owner]);

  useEffect(() => {
    void recoverInterruptedRecordings(owner).then((n) => {
      if (!n) return;
      handlers.current.onMessage({ ok: true, text: `Recovered ${n} interrupted recording${n > 1 ? "s" : ""}; queued for upload.` });
      handlers.current.onQueued();
    });
  }, [owner]);

  useEffect(() => {
    const launchQueue = (window as Window & { launchQueue?: LaunchQueue }).launchQueue;
    launchQueue?.setConsumer(async ({ files }) => {
      for (const handle of files) await handlers.current.onFile(await handle.getFile());
    });
  }, []);
}
