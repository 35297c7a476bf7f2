import { localDb, type QueuedLabels } from "@/app/_lib/local-db.ts";
import { flushQueue, type Flushed } from "@/app/_lib/notes/flush-queue.ts";
import { ApiRequestError, editTranscription, saveRead, transcriptionPath, type Transcription } from "@/app/_lib/api.ts";

// A note's tags and pin, queued like its text (edit-queue.ts): written to IndexedDB before they are
// sent, so a tag added or a pin set while the connection is gone reaches the server once it is
// back, from whichever page is open. Labels have no conflicts: the last one set wins, as on the
// server. Only what the person set is sent (tags, pin, or both), never the text.

export type Labels = Pick<QueuedLabels, "tags" | "pinned">;

export type LabelsOutcome = { status: "saved"; transcription: Transcription } | { status: "offline" } | { status: "failed"; message: string };

/** Said after a change that waits on the phone for a connection. */
export const SENT_WHEN_ONLINE = "Saved on this phone; sent when you are back online.";

/** The labels set on this device that the server does not have yet. */
export async function queuedLabels(transcriptionId: string): Promise<QueuedLabels | undefined> {
  return (await localDb()).get("labels", transcriptionId);
}

/** The note as the person left it: its queued tags and pin over the server's (or saved) copy. */
export function withQueuedLabels<T extends Pick<Transcription, "tags" | "pinned">>(note: T, queued: QueuedLabels | undefined): T {
  if (!queued) return note;
  return { ...note, ...(queued.tags && { tags: queued.tags }), ...(queued.pinned !== undefined && { pinned: queued.pinned }) };
}

/** Queues the note's new tags or pin (over what is still unsent) and tries to send them now. */
export async function saveLabels(transcriptionId: string, labels: Labels): Promise<LabelsOutcome> {
  const db = await localDb();
  const earlier = await db.get("labels", transcriptionId);
  const queued: QueuedLabels = { ...earlier, ...labels, transcriptionId, queuedAt: Date.now() };
  await db.put("labels", queued);
  return send(queued);
}

/**
 * Pins or unpins a note (a recording in parts: by its first part). `shown`: the pin is set, on the
 * server or queued on the phone; `message`: what to tell the person either way.
 */
export async function savePin(transcriptionId: string, pinned: boolean): Promise<{ shown: boolean; message: string }> {
  const outcome = await saveLabels(transcriptionId, { pinned }).catch((err: Error) => ({ status: "failed" as const, message: err.message }));
  if (outcome.status === "failed") return { shown: false, message: `Not ${pinned ? "pinned" : "unpinned"}: ${outcome.message}` };
  const said = pinned ? "Pinned to the top of Notes." : "Unpinned.";
  return { shown: true, message: outcome.status === "offline" ? `${said} ${SENT_WHEN_ONLINE}` : said };
}

async function send(queued: QueuedLabels): Promise<LabelsOutcome> {
  const db = await localDb();
  const { tags, pinned } = queued;
  try {
    const saved = await editTranscription(queued.transcriptionId, { ...(tags && { tags }), ...(pinned !== undefined && { pinned }) });
    // Only forget them if nothing newer was set meanwhile.
    const current = await db.get("labels", queued.transcriptionId);
    if (current?.queuedAt === queued.queuedAt) await db.delete("labels", queued.transcriptionId);
    await saveRead(transcriptionPath(queued.transcriptionId), saved);
    return { status: "saved", transcription: saved };
  } catch (err) {
    if (!(err instanceof ApiRequestError)) throw err;
    if (err.status === 0) return { status: "offline" };
    // Refused (the note is gone, or the tags are not allowed): kept no longer, and said.
    await db.delete("labels", queued.transcriptionId);
    return { status: "failed", message: err.message };
  }
}

/** Sends every note's waiting labels (back online, or the app just opened). */
export async function flushLabels(): Promise<Flushed> {
  return flushQueue("voicedraft-labels", async () => (await localDb()).getAll("labels"), send);
}
