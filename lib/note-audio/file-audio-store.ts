import { createReadStream } from "node:fs";
import { copyFile, mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { env } from "@/lib/env.ts";
import type { AudioKey, AudioStore, ByteRange } from "@/lib/note-audio/types.ts";

// Kept recordings as files: DATA_DIR/audio/<user id>/<note id>.webm. Ids are uuids (checked), so
// no key can name a path outside the folder.
const SAFE_ID = /^[0-9a-zA-Z-]{1,64}$/;

function userDir(userId: string): string {
  if (!SAFE_ID.test(userId)) throw new Error("unsafe user id for the audio store");
  return path.join(env().dataDir, "audio", userId);
}

function fileOf({ userId, transcriptionId }: AudioKey): string {
  if (!SAFE_ID.test(transcriptionId)) throw new Error("unsafe note id for the audio store");
  return path.join(userDir(userId), `${transcriptionId}.webm`);
}

export const fileAudioStore: AudioStore = {
  kind: "file",
  async put(key, filePath) {
    const target = fileOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Written beside its place, then renamed: a reader never sees half a file.
    const partial = `${target}.${process.pid}.partial`;
    await copyFile(filePath, partial);
    await rename(partial, target);
    const { size } = await stat(target);
    return size;
  },
  read(key, { start, end }: ByteRange) {
    return createReadStream(fileOf(key), { start, end });
  },
  async remove(keys) {
    await Promise.all(keys.map((key) => rm(fileOf(key), { force: true })));
  },
  async removeUser(userId) {
    await rm(userDir(userId), { recursive: true, force: true });
  },
};
