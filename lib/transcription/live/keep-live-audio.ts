import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { db } from "@/lib/db/client.ts";
import { errorFields, log } from "@/lib/log.ts";
import { findOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { encodeNoteAudio, keepNoteAudio, notPending, type Encoding } from "@/lib/notes/note-recognized.ts";
import { FFMPEG_DEMUXER, type AudioFormat } from "@/lib/transcription/audio/audio-format.ts";
import { writeLiveAudio } from "@/lib/transcription/live/live-audio-file.ts";
import { lowerPriority } from "@/lib/transcription/recognizers/priority.ts";

// A live recording's note is answered as soon as its text is saved (Stop); its recording is
// compressed and kept just after, and only then do the recording's chunks go. Compressing takes
// time in proportion to the length (5 minutes: 2–3 s of a core here), so when Stop waited for it,
// Stop's wait grew with the recording. The note says audio_pending meanwhile. A process that dies
// before the chunks go leaves them, with the note still pending: the sweep below keeps it later.

type LiveKey = { userId: string; id: string };

/** Starts compressing the recording to keep, from the recording itself (its format's demuxer). */
export function encodeLiveAudio(file: string, format: string, dir: string): Encoding {
  return encodeNoteAudio({ path: file, demuxer: FFMPEG_DEMUXER[format as AudioFormat] }, dir, { lowerPriority });
}

/** Keeps the note's audio from `encoding` once it is done, then drops the chunks and `dir`. Not awaited by Stop. */
export async function keepLiveAudio({ live, transcriptionId, encoding, dir }: { live: LiveKey; transcriptionId: string; encoding: Encoding; dir: string }): Promise<void> {
  try {
    await keepNoteAudio({ userId: live.userId, transcriptionId, encoding });
    // A second pass still to hear the recording hears it from the chunks, and drops them after.
    if (!(await findOwnedNote({ userId: live.userId, id: transcriptionId }, { textImprovingSince: true }))?.textImprovingSince) await dropLiveChunks(live);
  } catch (err) {
    // The chunks stay, and the note pending: the sweep tries again.
    log.warn("could not finish keeping a live recording's audio", { live_recording_id: live.id, ...errorFields(err) });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The recording's chunks go (its audio kept, or not to be kept, and its second pass, if any, over). */
export async function dropLiveChunks({ userId, id }: LiveKey): Promise<void> {
  const prisma = await db();
  await prisma.liveRecordingChunk.deleteMany({ where: { userId, recordingId: id } });
}

/** A finished recording whose chunks are still there this long after its last change was left by a process that stopped. */
export const UNKEPT_AFTER_SECONDS = 10 * 60;

/**
 * The sweep: finished live recordings that still hold their chunks long after Stop (the process
 * keeping their audio stopped). Their note's audio is kept from the chunks if it is still pending,
 * and the chunks go. Each recording is claimed first, so two workers never do one twice.
 */
export async function keepUnkeptLiveAudio({ olderThanSeconds = UNKEPT_AFTER_SECONDS }: { olderThanSeconds?: number } = {}): Promise<number> {
  const prisma = await db();
  const stale = await prisma.liveRecording.findMany({
    where: { status: "done", updatedAt: { lt: new Date(Date.now() - olderThanSeconds * 1000) }, chunks: { some: {} } },
    select: { userId: true, id: true, format: true, transcriptionId: true, updatedAt: true },
    take: 10,
  });
  let kept = 0;
  for (const row of stale) {
    const claimed = await prisma.liveRecording.updateMany({ where: { userId: row.userId, id: row.id, updatedAt: row.updatedAt }, data: { updatedAt: new Date() } });
    if (!claimed.count) continue;
    const note = row.transcriptionId
      ? await findOwnedNote({ userId: row.userId, id: row.transcriptionId }, { audioPendingSince: true, audioType: true, textImprovingSince: true })
      : null;
    // Its second pass hears the chunks, and drops them after.
    if (note?.textImprovingSince) continue;
    if (note?.audioPendingSince && !note.audioType && row.transcriptionId) {
      const dir = await mkdtemp(path.join(tmpdir(), "vd-live-keep-"));
      let file: string;
      try {
        file = await writeLiveAudio(row, dir);
      } catch (err) {
        await rm(dir, { recursive: true, force: true });
        throw err;
      }
      await keepLiveAudio({ live: row, transcriptionId: row.transcriptionId, encoding: encodeLiveAudio(file, row.format, dir), dir });
      kept += 1;
    } else {
      if (row.transcriptionId) await notPending({ userId: row.userId, transcriptionId: row.transcriptionId });
      await dropLiveChunks(row);
    }
  }
  if (kept) log.info("kept the audio of finished live recordings", { count: kept });
  return kept;
}
