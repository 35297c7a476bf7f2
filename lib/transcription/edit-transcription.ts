import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { toTranscriptionResult } from "@/lib/transcription/save-transcription.ts";
import type { EditTranscriptionInput, TranscriptionResult } from "@/lib/transcription/schemas.ts";

/** Replaces the transcript's text with the user's edit; refuses an edit based on a stale copy. */
export async function editTranscription({
  userId,
  id,
  input,
}: {
  userId: string;
  id: string;
  input: z.output<typeof EditTranscriptionInput>;
}): Promise<TranscriptionResult> {
  const prisma = await db();
  const { count } = await prisma.transcription.updateMany({
    where: { id, userId, ...(input.updated_at && { updatedAt: new Date(input.updated_at) }) },
    data: { text: input.text },
  });
  const row = await prisma.transcription.findFirst({ where: { id, userId }, include: { optimization: true } });
  if (!row) throw notFound(`The transcription ${id}`);
  if (!count) {
    throw new ApiError("edit_conflict", "The transcript changed since you loaded it; reload it and apply your edit again.");
  }
  return toTranscriptionResult(row);
}
