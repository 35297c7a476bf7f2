import { writeFile } from "node:fs/promises";
import path from "node:path";
import { db } from "@/lib/db/client.ts";

// A live recording's audio as one file: its chunks (as they came, by byte offset) written in order
// into a folder of the caller's, for the decoder (cutting pieces, finishing, keeping, checking).

/** The recording's audio so far (or its first `upTo` bytes), from its chunks in order, as one file in `dir`. */
export async function writeLiveAudio(row: { userId: string; id: string; format: string }, dir: string, upTo?: number): Promise<string> {
  const prisma = await db();
  const chunks = await prisma.liveRecordingChunk.findMany({
    where: { userId: row.userId, recordingId: row.id, ...(upTo !== undefined && { offset: { lt: upTo } }) },
    orderBy: { offset: "asc" },
    select: { data: true },
  });
  const file = path.join(dir, `recording.${row.format}`);
  await writeFile(file, Buffer.concat(chunks.map((c) => Buffer.from(c.data))));
  return file;
}
