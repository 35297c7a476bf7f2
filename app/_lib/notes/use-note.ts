"use client";

import { useCallback, useEffect, useRef, useState, type SetStateAction } from "react";
import { ApiRequestError, readTranscription, savedRead, saveRead, transcriptionPath, type Transcription } from "@/app/_lib/api.ts";
import { queuedEdit } from "@/app/_lib/notes/edit-queue.ts";
import { queuedLabels, withQueuedLabels } from "@/app/_lib/notes/label-queue.ts";

const POLL_MS = 2000;
/** Reads after nothing is on its way any more (see below). */
const SETTLE_READS = 5;

/**
 * One note as its page shows it: the server's copy (or this phone's saved copy, offline), with the
 * tags and pin queued on this phone over it, followed while its clean-up or its recording is on
 * its way. `onQueuedEdit` hears of an edit not yet on the server (the text to show instead).
 */
export function useNote(id: string, initial: Transcription | undefined, onQueuedEdit: (edit: { text: string; status: string }) => void) {
  const [transcript, setTranscript] = useState<Transcription | null>(initial ?? null);
  // When the note shown is this phone's saved copy (offline): when it was saved.
  const [deviceCopyAt, setDeviceCopyAt] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reads, setReads] = useState(0);
  const seeded = useRef(initial);
  // Counts the copies set from outside a read (a save's answer): a read that began before one is stale.
  const writes = useRef(0);
  const setSaved = useCallback((next: SetStateAction<Transcription | null>) => {
    writes.current += 1;
    setTranscript(next);
  }, []);
  const queued = useRef(onQueuedEdit);
  useEffect(() => {
    queued.current = onQueuedEdit;
  }, [onQueuedEdit]);

  const load = useCallback(async () => {
    const started = writes.current;
    try {
      // The server's copy on the first load (kept as this device's saved copy, as a fetch would be).
      const first = seeded.current;
      seeded.current = undefined;
      const { data: read, fromDevice, savedAt } = first ? await seededRead(transcriptionPath(id), first) : await readTranscription(id);
      // Tags or a pin set on this phone and not yet sent show as set.
      const t = withQueuedLabels(read, await queuedLabels(id).catch(() => undefined));
      // A read that started before a save answered is older than what the save gave back (tags
      // and insights do not move updated_at): it must not take the newer copy's place (a poll
      // dropped a tag just added until the next one). The next read brings both.
      if (writes.current !== started) return;
      setTranscript(t);
      setDeviceCopyAt(fromDevice ? (savedAt ?? Date.now()) : null);
      setError(null);
      // An edit not yet on the server (made offline, or refused as a conflict) is the text to show.
      const waiting = await queuedEdit(id).catch(() => undefined);
      if (waiting) queued.current(waiting);
    } catch (err) {
      setError(err instanceof ApiRequestError && err.status === 0 ? "No connection, and this note is not saved on this phone yet." : (err as Error).message);
    } finally {
      // Every read schedules the next while the note is followed, one whose copy was set aside too.
      setReads((n) => n + 1);
    }
  }, [id]);

  useEffect(() => {
    void load();
  }, [load]);

  // Followed while something of it is on its way: its clean-up, the recording kept just after Stop,
  // its text heard again (the second pass), and insights being written for its text now (after any
  // of those, or an edit: the writer's follow the offline ones). Each read schedules the next; a
  // copy from this phone (offline) is not polled.
  // A few reads more once nothing is on its way: what the server does after one step (insights of
  // the text a second pass just gave, a clean-up's) can land just after the read that saw the step
  // end, and the page would show the earlier summary or to-dos until a reload.
  const onItsWay = deviceCopyAt === null && isOnItsWay(transcript);
  const [settling, setSettling] = useState(0);
  const [wasOnItsWay, setWasOnItsWay] = useState(onItsWay);
  if (wasOnItsWay !== onItsWay) {
    setWasOnItsWay(onItsWay);
    setSettling(onItsWay ? 0 : SETTLE_READS);
  }
  const following = onItsWay || settling > 0;
  useEffect(() => {
    if (!following) return;
    const timer = setTimeout(() => {
      if (!onItsWay) setSettling((n) => Math.max(0, n - 1));
      void load();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [following, onItsWay, reads, load]);

  return { transcript, setTranscript: setSaved, deviceCopyAt, error, setError, load };
}

function isOnItsWay(note: Transcription | null): boolean {
  const status = note?.optimization?.status;
  return !!note && (status === "pending" || status === "running" || note.audio_pending || note.text_improving || note.insights_pending);
}

/**
 * The note the server rendered into the page, unless this phone holds a newer copy: offline, the
 * page itself may be the service worker's old copy, while the note was fixed since (the saved
 * copy is updated on every read and edit). A rendered copy seen offline counts as a device copy.
 */
async function seededRead(url: string, first: Transcription): Promise<{ data: Transcription; fromDevice: boolean; savedAt?: number }> {
  const saved = await savedRead(url);
  const kept = saved?.body as Transcription | undefined;
  if (kept && saved && kept.updated_at > first.updated_at) return { data: kept, fromDevice: true, savedAt: saved.savedAt };
  if (typeof navigator !== "undefined" && navigator.onLine === false) return { data: first, fromDevice: true, savedAt: saved?.savedAt };
  void saveRead(url, first);
  return { data: first, fromDevice: false };
}
