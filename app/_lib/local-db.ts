import { openDB, type DBSchema, type IDBPDatabase } from "idb";

// The device's own store (IndexedDB): recordings as they are made, the upload queue, the last
// copy of every API page read (for offline reading) and the note edits not yet saved.
// Nothing here is trusted by the server; it only survives reloads, crashes and restarts.

export type UploadStatus = "pending" | "uploading" | "done" | "failed";

// Every recording and upload carries its owner (the signed-in user's id): a shared device must
// never upload one person's recording into another person's account.
export type LocalRecording = {
  id: string;
  owner: string;
  createdAt: number;
  mimeType: string;
  state: "recording" | "stopped";
  /** Sent while it is made (PATCH /api/v1/live-recordings/{id}); finished from the upload queue. */
  live?: boolean;
  /** Before live recordings: seconds already cut into parts and queued, and how many parts. */
  cutAt?: number;
  partsQueued?: number;
};

export type RecordingChunk = { recordingId: string; seq: number; blob: Blob };

export type QueuedUpload = {
  id: string;
  owner: string;
  /** Groups the parts of one recording; equals id for a single-part upload. */
  batchId: string;
  /**
   * Sent as recording_id with every part, so the server joins them (GET /api/v1/recordings/{id}).
   * Missing on items queued before it existed: batchId stands in.
   */
  recordingId?: string;
  /** A live recording: the rest of its bytes go by PATCH, then …/finish makes the note (not POST /transcribe). */
  live?: boolean;
  /** From 1 here; sent as recording_part from 0. */
  part: number;
  parts: number;
  createdAt: number;
  fileName: string;
  mimeType: string;
  /** Dropped once the upload is done, to give the space back. */
  blob: Blob | null;
  /**
   * Too large to send as it is (over LARGEST_REQUEST_BYTES: a shared file, a file the audio tools
   * could not convert): never sent whole; a page of the app converts it to compact parts first
   * (prepare-queued.ts), which take its place.
   */
  prepare?: boolean;
  /** Sent as Idempotency-Key: a retry after a lost response replays the first result instead of creating another. */
  idempotencyKey: string;
  status: UploadStatus;
  attempts: number;
  nextAttemptAt: number;
  error: string | null;
  transcriptionId: string | null;
};

/** The last answer to a GET of the API, by its path; cleared when someone signs in or out. */
export type SavedRead = { path: string; body: unknown; savedAt: number };

/** A note's text as the user left it, until the server has it. */
export type QueuedEdit = {
  transcriptionId: string;
  text: string;
  /** The updated_at the edit was made on: the server refuses it (409) when the note changed since. */
  baseUpdatedAt: string;
  status: "pending" | "conflict";
  queuedAt: number;
};

/** A note's tags and pin as the user last set them, until the server has them (only what was set). */
export type QueuedLabels = {
  transcriptionId: string;
  tags?: string[];
  pinned?: boolean;
  queuedAt: number;
};

interface LocalSchema extends DBSchema {
  recordings: { key: string; value: LocalRecording };
  recordingChunks: { key: [string, number]; value: RecordingChunk; indexes: { byRecording: string } };
  uploads: { key: string; value: QueuedUpload; indexes: { byStatus: UploadStatus } };
  reads: { key: string; value: SavedRead };
  edits: { key: string; value: QueuedEdit };
  labels: { key: string; value: QueuedLabels };
}

export type LocalDb = IDBPDatabase<LocalSchema>;

let opened: Promise<LocalDb> | undefined;

export function localDb(): Promise<LocalDb> {
  opened ??= openDB<LocalSchema>("voicedraft", 3, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore("recordings", { keyPath: "id" });
        const chunks = db.createObjectStore("recordingChunks", { keyPath: ["recordingId", "seq"] });
        chunks.createIndex("byRecording", "recordingId");
        const uploads = db.createObjectStore("uploads", { keyPath: "id" });
        uploads.createIndex("byStatus", "status");
      }
      if (oldVersion < 2) {
        db.createObjectStore("reads", { keyPath: "path" });
        db.createObjectStore("edits", { keyPath: "transcriptionId" });
      }
      if (oldVersion < 3) db.createObjectStore("labels", { keyPath: "transcriptionId" });
    },
    // Another tab still has an older version open: let it go, so this one can upgrade.
    blocking() {
      void opened?.then((db) => db.close());
      opened = undefined;
    },
  });
  return opened;
}

const CHANNEL = "voicedraft-uploads";

/** Tells every tab (and the service worker) that the queue changed. */
export function announceQueueChange(): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage("changed");
  channel.close();
}

export function onQueueChange(listener: () => void): () => void {
  if (typeof BroadcastChannel === "undefined") return () => undefined;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = listener;
  return () => channel.close();
}
