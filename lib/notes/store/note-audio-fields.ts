import { db } from "@/lib/db/client.ts";

// The note's record of its kept recording (lib/note-audio keeps the bytes). Written with SQL of
// its own: a recording kept or forgotten changes no text, so updated_at stays (a client editing
// with the updated_at of its answer would be refused as a conflict).

/** Marks the note as keeping its recording (and no longer pending); false when the note is gone. */
export async function setAudio({ userId, id, storage, type, bytes }: { userId: string; id: string; storage: string; type: string; bytes: number }): Promise<boolean> {
  const count = await (await db()).$executeRaw`
    UPDATE transcriptions SET audio_storage = ${storage}, audio_type = ${type}, audio_bytes = ${bytes}, audio_kept_at = now(), audio_pending_since = NULL
    WHERE id = ${id} AND user_id = ${userId}`;
  return count > 0;
}

/** The note's recording is no longer coming. */
export async function clearAudioPending({ userId, id }: { userId: string; id: string }): Promise<void> {
  await (await db()).$executeRaw`UPDATE transcriptions SET audio_pending_since = NULL WHERE id = ${id} AND user_id = ${userId} AND audio_pending_since IS NOT NULL`;
}

/** These notes keep no recording any more. */
export async function clearAudio(ids: string[]): Promise<void> {
  await (await db()).$executeRaw`
    UPDATE transcriptions SET audio_storage = NULL, audio_type = NULL, audio_bytes = NULL, audio_kept_at = NULL
    WHERE id = ANY(${ids}::text[])`;
}

/** Up to `take` notes (anyone's) whose recording was kept at or before `before`. */
export async function notesWithAudioKeptBefore(before: Date, take: number): Promise<{ id: string; userId: string; audioStorage: string | null }[]> {
  return (await db()).note.findMany({ where: { audioKeptAt: { lte: before } }, select: { id: true, userId: true, audioStorage: true }, take });
}

/** The bytes of the recordings the person's notes keep. */
export async function keptAudioBytes({ userId }: { userId: string }): Promise<number> {
  const kept = await (await db()).note.aggregate({ where: { userId }, _sum: { audioBytes: true } });
  return kept._sum.audioBytes ?? 0;
}
