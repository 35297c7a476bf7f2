import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { toTranscriptionResult } from "@/lib/transcription/save-transcription.ts";
import type { ListTranscriptionsQuery } from "@/lib/transcription/schemas.ts";

// Cursor = the last returned id (uuid v7: time-ordered), so pages stay stable as new ones arrive.
function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  if (!/^[0-9a-f-]{36}$/.test(id)) {
    throw new ApiError("validation_failed", "The cursor is not one this API returned.", {
      details: [{ path: "cursor", message: "invalid cursor" }],
    });
  }
  return id;
}

/** The user's transcriptions, newest first (without segments, which GET by id returns). */
export async function listTranscriptions({ userId, input }: { userId: string; input: z.output<typeof ListTranscriptionsQuery> }) {
  const prisma = await db();
  const rows = await prisma.transcription.findMany({
    where: { userId, ...(input.cursor && { id: { lt: decodeCursor(input.cursor) } }) },
    orderBy: { id: "desc" },
    take: input.limit + 1,
    include: { optimization: true },
  });
  const page = rows.slice(0, input.limit);
  return {
    transcriptions: page.map((row) => ({ ...toTranscriptionResult(row), segments: undefined })),
    next_cursor: rows.length > input.limit ? Buffer.from(page[page.length - 1].id, "utf8").toString("base64url") : null,
  };
}
