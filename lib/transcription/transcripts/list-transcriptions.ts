import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { pageTake, paginate } from "@/lib/db/paginate.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import { toTranscriptionResult } from "@/lib/transcription/transcripts/present-transcription.ts";
import type { ListTranscriptionsQuery } from "@/lib/transcription/schemas.ts";
import { searchTranscriptions } from "@/lib/transcription/transcripts/search-transcriptions.ts";

// Cursor = the last returned id (uuid v7: time-ordered), so pages stay stable as new ones arrive.
const isId = (key: string) => /^[0-9a-f-]{36}$/.test(key);

/** The user's transcriptions, newest first (without segments and words, which GET by id returns); with q, those that match it. */
export async function listTranscriptions({ userId, input }: { userId: string; input: z.output<typeof ListTranscriptionsQuery> }) {
  if (input.q) return searchTranscriptions({ userId, input: { ...input, q: input.q } });
  const prisma = await db();
  const rows = await prisma.transcription.findMany({
    where: { userId, ...(input.cursor && { id: { lt: decodeCursor(input.cursor, isId) } }) },
    orderBy: { id: "desc" },
    take: pageTake(input.limit),
    include: { optimization: true },
  });
  const { page, nextCursor } = paginate(rows, input.limit, (last) => encodeCursor(last.id));
  return { transcriptions: page.map((row) => ({ ...toTranscriptionResult(row), segments: undefined, words: undefined })), next_cursor: nextCursor };
}
