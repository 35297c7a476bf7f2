import { open } from "node:fs/promises";
import { db } from "@/lib/db/client.ts";
import type { AudioStore, ByteRange } from "@/lib/note-audio/types.ts";

// Kept recordings in the database (note_audio_chunks): 256 KiB per row, so a Range request reads
// only the rows it covers, and no statement carries more than one chunk.
export const CHUNK_BYTES = 256 * 1024;

export const databaseAudioStore: AudioStore = {
  kind: "database",
  async put({ transcriptionId }, filePath) {
    const prisma = await db();
    const file = await open(filePath, "r");
    try {
      await prisma.noteAudioChunk.deleteMany({ where: { transcriptionId } });
      let seq = 0;
      let total = 0;
      for (;;) {
        const buffer = Buffer.alloc(CHUNK_BYTES);
        const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, null);
        if (bytesRead === 0) break;
        await prisma.noteAudioChunk.create({ data: { transcriptionId, seq, data: buffer.subarray(0, bytesRead) } });
        seq += 1;
        total += bytesRead;
      }
      return total;
    } finally {
      await file.close();
    }
  },
  async *read({ transcriptionId }, { start, end }: ByteRange) {
    const prisma = await db();
    const first = Math.floor(start / CHUNK_BYTES);
    const last = Math.floor(end / CHUNK_BYTES);
    // A few chunks per query: memory stays at a few chunks whatever the size of the range.
    for (let seq = first; seq <= last; seq += 4) {
      const rows = await prisma.noteAudioChunk.findMany({
        where: { transcriptionId, seq: { gte: seq, lte: Math.min(last, seq + 3) } },
        orderBy: { seq: "asc" },
      });
      for (const row of rows) {
        const offset = row.seq * CHUNK_BYTES;
        const from = Math.max(0, start - offset);
        const to = Math.min(row.data.length, end - offset + 1);
        if (to > from) yield row.data.subarray(from, to);
      }
    }
  },
  async remove(keys) {
    const prisma = await db();
    await prisma.noteAudioChunk.deleteMany({ where: { transcriptionId: { in: keys.map((k) => k.transcriptionId) } } });
  },
  async removeUser(userId) {
    const prisma = await db();
    await prisma.noteAudioChunk.deleteMany({ where: { transcription: { userId } } });
  },
};
