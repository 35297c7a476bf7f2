import { deleteTranscription } from "@/app/_lib/api.ts";
import { forgetNoteAudio } from "@/app/_lib/service-worker.ts";

// Deleting a note, with a few seconds to take it back: the note disappears from the app at once,
// and the DELETE is sent when the Undo time is over (a note whose page is closed in those seconds
// simply stays). Kept here, not in a page, so leaving the note's page does not cancel it.

export const UNDO_MS = 6000;

type Pending = { timer: ReturnType<typeof setTimeout>; withPosts: boolean };
const pending = new Map<string, Pending>();
const listeners = new Set<() => void>();
// Moves on every change: the snapshot React's useSyncExternalStore compares.
let version = 0;
const changed = () => {
  version += 1;
  listeners.forEach((l) => l());
};

/** A number that changes whenever a deletion starts, is undone or is done. */
export const deletionsVersion = () => version;

/** Notes being deleted (hidden from lists until Undo or the deletion). */
export const isBeingDeleted = (id: string) => pending.has(id);

export function onDeletionsChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Deletes the note (and, with `withPosts`, the posts made from it) once the Undo time is over. */
export function deleteNoteLater(id: string, { withPosts, onFailed }: { withPosts: boolean; onFailed: (message: string) => void }): void {
  cancelDeletion(id);
  const timer = setTimeout(async () => {
    try {
      await deleteTranscription(id, { withPosts });
      await forgetNoteAudio(id).catch(() => undefined);
    } catch (err) {
      onFailed((err as Error).message);
    } finally {
      pending.delete(id);
      changed();
    }
  }, UNDO_MS);
  pending.set(id, { timer, withPosts });
  changed();
}

/** Undo: the note stays. */
export function cancelDeletion(id: string): void {
  const entry = pending.get(id);
  if (!entry) return;
  clearTimeout(entry.timer);
  pending.delete(id);
  changed();
}
