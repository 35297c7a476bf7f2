import { localDb, type QueuedEdit } from "@/app/_lib/local-db.ts";
import { flushQueue, type Flushed } from "@/app/_lib/notes/flush-queue.ts";
import {
  editTranscription,
  getTranscription,
  ApiRequestError,
  saveRead,
  transcriptionPath,
  type DictionarySuggestion,
  type Transcription,
  type TranscriptionEdit,
} from "@/app/_lib/api.ts";

// Note edits, queued like uploads: written to IndexedDB before they are sent, so an edit made
// offline (or in a tab closed before it was saved) reaches the server once the phone is back
// online. An edit refused because the note changed elsewhere (409) stays as a conflict for the
// note page to show; it is never sent over the other version without the user choosing so.

const CHANNEL = "voicedraft-edits";

export type EditOutcome =
  | { status: "saved"; transcription: Transcription; suggestions: DictionarySuggestion[] }
  | { status: "offline" }
  | { status: "conflict" }
  | { status: "failed"; message: string };

function announce(): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage("changed");
  channel.close();
}

export function onEditsChange(listener: () => void): () => void {
  if (typeof BroadcastChannel === "undefined") return () => undefined;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = listener;
  return () => channel.close();
}

export async function queuedEdit(transcriptionId: string): Promise<QueuedEdit | undefined> {
  return (await localDb()).get("edits", transcriptionId);
}

export async function discardEdit(transcriptionId: string): Promise<void> {
  await (await localDb()).delete("edits", transcriptionId);
  announce();
}

/** Queues the note's new text (replacing an older unsent one) and tries to send it now. */
export async function saveEdit(transcriptionId: string, text: string, baseUpdatedAt: string, { force = false } = {}): Promise<EditOutcome> {
  const db = await localDb();
  const earlier = await db.get("edits", transcriptionId);
  // An unsent earlier edit keeps its base: the server must compare with what the user first saw.
  const edit: QueuedEdit = { transcriptionId, text, baseUpdatedAt: earlier?.baseUpdatedAt ?? baseUpdatedAt, status: "pending", queuedAt: Date.now() };
  await db.put("edits", edit);
  announce();
  return send(edit, force);
}

async function send(edit: QueuedEdit, force: boolean): Promise<EditOutcome> {
  const body: TranscriptionEdit = { text: edit.text, ...(!force && { updated_at: edit.baseUpdatedAt }) };
  const db = await localDb();
  try {
    const { dictionary_suggestions: suggestions, ...saved } = await editTranscription(edit.transcriptionId, body);
    // Only forget the edit if it is still the one sent (the user may have typed on meanwhile).
    const current = await db.get("edits", edit.transcriptionId);
    if (current?.text === edit.text) await db.delete("edits", edit.transcriptionId);
    else if (current) await db.put("edits", { ...current, baseUpdatedAt: saved.updated_at });
    await saveRead(transcriptionPath(edit.transcriptionId), saved);
    announce();
    return { status: "saved", transcription: saved, suggestions };
  } catch (err) {
    if (!(err instanceof ApiRequestError)) throw err;
    if (err.status === 0) return { status: "offline" };
    if (err.status === 409) {
      // Sent twice (a tab and the background flush): the server already has exactly this text.
      const server = await getTranscription(edit.transcriptionId).catch(() => null);
      if (server?.text === edit.text) {
        await db.delete("edits", edit.transcriptionId);
        announce();
        return { status: "saved", transcription: server, suggestions: [] };
      }
      await db.put("edits", { ...edit, status: "conflict" });
      announce();
      return { status: "conflict" };
    }
    if (err.status === 404) await db.delete("edits", edit.transcriptionId); // the note is gone
    return { status: "failed", message: err.message };
  }
}

/** Sends every waiting edit (back online, or the app just opened). */
export async function flushEdits(): Promise<Flushed> {
  const pending = async () => (await (await localDb()).getAll("edits")).filter((edit) => edit.status === "pending");
  return flushQueue("voicedraft-edits", pending, (edit) => send(edit, false));
}
