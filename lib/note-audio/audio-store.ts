import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { env } from "@/lib/env.ts";
import { databaseAudioStore } from "@/lib/note-audio/database-audio-store.ts";
import { fileAudioStore } from "@/lib/note-audio/file-audio-store.ts";
import type { AudioKey, AudioStorage, AudioStore } from "@/lib/note-audio/types.ts";

export type { AudioKey, AudioStorage, AudioStore, ByteRange } from "@/lib/note-audio/types.ts";

// Where kept recordings live: one small interface, two implementations chosen by AUDIO_STORE.
// "file" (default): DATA_DIR/audio/<user>/<note>.webm, for one machine. "database": 256 KiB bytea
// chunks in PostgreSQL, so every app process on any machine sharing it serves them. Each note
// records which store holds its audio, so changing AUDIO_STORE later still serves older notes.

export function audioStore(kind: AudioStorage = env().AUDIO_STORE): AudioStore {
  return kind === "database" ? databaseAudioStore : fileAudioStore;
}

/** Every store, for what must reach all of them (account deletion). */
export const AUDIO_STORES: AudioStore[] = [fileAudioStore, databaseAudioStore];

/** A note's kept recording (`bytes` long, in the store named `storage`) copied to a file (a second pass hears it). */
export async function copyKeptAudio(key: AudioKey, { storage, bytes }: { storage: string; bytes: number }, toPath: string): Promise<void> {
  await pipeline(Readable.from(audioStore(storage as AudioStorage).read(key, { start: 0, end: bytes - 1 })), createWriteStream(toPath));
}
