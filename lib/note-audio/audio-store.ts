import { env } from "@/lib/env.ts";
import { databaseAudioStore } from "@/lib/note-audio/database-audio-store.ts";
import { fileAudioStore } from "@/lib/note-audio/file-audio-store.ts";

// Where kept recordings live: one small interface, two implementations chosen by AUDIO_STORE.
// "file" (default): DATA_DIR/audio/<user>/<note>.webm, for one machine. "database": 256 KiB bytea
// chunks in PostgreSQL, so every app process on any machine sharing it serves them. Each note
// records which store holds its audio, so changing AUDIO_STORE later still serves older notes.

export type AudioStorage = "file" | "database";
export type AudioKey = { userId: string; transcriptionId: string };
/** Inclusive byte offsets, as in a Range header. */
export type ByteRange = { start: number; end: number };

export interface AudioStore {
  readonly kind: AudioStorage;
  /** Keeps the file's bytes for this note (replacing any kept before); returns their count. */
  put(key: AudioKey, filePath: string): Promise<number>;
  /** The bytes in `range` (within the kept size), as they are read. */
  read(key: AudioKey, range: ByteRange): AsyncIterable<Uint8Array>;
  /** Forgets these notes' audio (already gone is fine). */
  remove(keys: AudioKey[]): Promise<void>;
  /** Forgets every recording of one user (account deletion). */
  removeUser(userId: string): Promise<void>;
}

export function audioStore(kind: AudioStorage = env().AUDIO_STORE): AudioStore {
  return kind === "database" ? databaseAudioStore : fileAudioStore;
}

/** Every store, for what must reach all of them (account deletion). */
export const AUDIO_STORES: AudioStore[] = [fileAudioStore, databaseAudioStore];
