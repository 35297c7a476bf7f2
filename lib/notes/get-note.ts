import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { presentNote } from "@/lib/notes/present-note.ts";
import type { TranscriptionResult } from "@/lib/notes/schemas.ts";

/** One of the user's transcriptions; another user's id is indistinguishable from a missing one. */
export async function getNote({ userId, id }: { userId: string; id: string }): Promise<TranscriptionResult> {
  const prisma = await db();
  const row = await prisma.transcription.findFirst({ where: { id, userId }, include: { optimization: true } });
  if (!row) throw notFound(`The transcription ${id}`);
  return presentNote(row);
}
