import { env } from "@/lib/env.ts";
import { errorFields, log } from "@/lib/log.ts";
import { audioStore } from "@/lib/note-audio/audio-store.ts";
import type { Encoding } from "@/lib/note-audio/encode-note-audio.ts";
import { clearAudioPending, setAudio } from "@/lib/notes/store/note-audio-fields.ts";

/** Whether a new recording's audio is kept: the request's keep_audio, unless retention is 0 days. */
export function shouldKeepAudio(keepAudio: boolean | undefined): boolean {
  return keepAudio !== false && env().AUDIO_RETENTION_DAYS !== 0;
}

/**
 * Stores a note's compressed recording once it is saved, and marks the note as having it. A
 * failure here costs the note its audio, never its text: it is logged, and the note is answered.
 * Either way the note's audio is no longer pending.
 */
export async function keepNoteAudio({ userId, transcriptionId, encoding }: { userId: string; transcriptionId: string; encoding: Encoding }) {
  try {
    const encoded = await encoding.done;
    const store = audioStore();
    const bytes = await store.put({ userId, transcriptionId }, encoded.path);
    // updated_at stays (lib/notes/store/note-audio-fields.ts): it says when the text changed.
    if (!(await setAudio({ userId, id: transcriptionId, storage: store.kind, type: encoded.contentType, bytes }))) {
      // The note was deleted while its audio was being stored: no recording may outlive it.
      await store.remove([{ userId, transcriptionId }]);
      return null;
    }
    return { url: `/api/v1/transcriptions/${transcriptionId}/audio`, content_type: encoded.contentType, bytes };
  } catch (err) {
    log.warn("could not keep a note's audio", { transcription_id: transcriptionId, ...errorFields(err) });
    await notPending({ userId, transcriptionId }).catch(() => undefined); // given up: nobody waits for it
    return null;
  }
}

/** The note's audio is no longer coming (given up, or nothing to keep): readers stop waiting for it. */
export async function notPending({ userId, transcriptionId }: { userId: string; transcriptionId: string }): Promise<void> {
  await clearAudioPending({ userId, id: transcriptionId });
}
