import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { toTranscriptionResult } from "@/lib/transcription/transcripts/present-transcription.ts";
import type { TranscriptionResult } from "@/lib/transcription/schemas.ts";

/** One of the user's transcriptions; another user's id is indistinguishable from a missing one. */
export async function getTranscription({ userId, id }: { userId: string; id: string }): Promise<TranscriptionResult> {
  const prisma = await db();
  const row = await prisma.transcription.findFirst({ where: { id, userId }, include: { optimization: true } });
  if (!row) throw notFound(`The transcription ${id}`);
  return toTranscriptionResult(row);
}
