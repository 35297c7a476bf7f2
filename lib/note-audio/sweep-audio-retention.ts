import { env } from "@/lib/env.ts";
import { log } from "@/lib/log.ts";
import { audioStore, type AudioStorage } from "@/lib/note-audio/audio-store.ts";
import { clearAudio, notesWithAudioKeptBefore } from "@/lib/notes/store/note-audio-fields.ts";

/**
 * AUDIO_RETENTION_DAYS: recordings kept longer than that are forgotten (the notes stay, with
 * their text). Runs in the background work every hour, a batch at a time.
 */
export async function forgetExpiredAudio({ now = new Date(), batch = 200 } = {}): Promise<number> {
  const days = env().AUDIO_RETENTION_DAYS;
  if (days === undefined) return 0;
  const before = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  let forgotten = 0;
  for (;;) {
    const rows = await notesWithAudioKeptBefore(before, batch);
    if (!rows.length) break;
    await forgetAudio(rows);
    forgotten += rows.length;
    if (rows.length < batch) break;
  }
  if (forgotten) log.info("forgot expired recordings", { count: forgotten, retention_days: days });
  return forgotten;
}

/** Removes these notes' kept audio from their store, then the note's record of it. */
export async function forgetAudio(rows: { id: string; userId: string; audioStorage: string | null }[]): Promise<void> {
  for (const kind of ["file", "database"] as AudioStorage[]) {
    const keys = rows.filter((r) => r.audioStorage === kind).map((r) => ({ userId: r.userId, transcriptionId: r.id }));
    if (keys.length) await audioStore(kind).remove(keys);
  }
  // updated_at stays: it says when the text changed, and forgetting a recording changes no text.
  await clearAudio(rows.map((r) => r.id));
}
