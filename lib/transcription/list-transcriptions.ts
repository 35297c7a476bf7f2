import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import { toTranscriptionResult } from "@/lib/transcription/save-transcription.ts";
import type { ListTranscriptionsQuery } from "@/lib/transcription/schemas.ts";

// Cursor = the last returned id (uuid v7: time-ordered), so pages stay stable as new ones arrive.
const isId = (key: string) => /^[0-9a-f-]{36}$/.test(key);

/** The user's transcriptions, newest first (without segments, which GET by id returns). */
export async function listTranscriptions({ userId, input }: { userId: string; input: z.output<typeof ListTranscriptionsQuery> }) {
  const prisma = await db();
  const rows = await prisma.transcription.findMany({
    where: { userId, ...(input.cursor && { id: { lt: decodeCursor(input.cursor, isId) } }) },
    orderBy: { id: "desc" },
    take: input.limit + 1,
    include: { optimization: true },
  });
  const page = rows.slice(0, input.limit);
  return {
    transcriptions: page.map((row) => ({ ...toTranscriptionResult(row), segments: undefined })),
    next_cursor: rows.length > input.limit ? encodeCursor(page[page.length - 1].id) : null,
  };
}
