// The audio stores' one interface (lib/note-audio/audio-store.ts chooses the implementation).

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
