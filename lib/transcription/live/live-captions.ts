import { open } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { env } from "@/lib/env.ts";
import { log } from "@/lib/log.ts";
import type { Word } from "@/lib/notes/segment.ts";
import { SAMPLE_RATE } from "@/lib/transcription/audio/decode-audio.ts";
import { recognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import type { RecognitionStream } from "@/lib/transcription/recognizers/types.ts";

// Captions while the person speaks. The recording's pieces are cut in pauses every 5–12 s, and a
// piece's words came a piece late (bench:app-record: median 8.7 s after they were said). So each
// live recording also has a stream recognizer (PocketSphinx reading the samples as they arrive),
// which hears each phrase as soon as the speaker pauses after it: its words are the provisional
// captions after the last recognized piece, replaced by that piece's text once it is heard. The
// note is made from the pieces, as before: the stream changes only what is shown while recording.
//
// Each cut (cut-live-pieces.ts) decodes the audio from `heardUntil` to the end that arrived, and
// hands it here; the samples the stream has not had yet are written to it. A stream lives in the
// process that serves the recording's PATCH requests, and ends at Stop, or when no audio has come
// for a while (the phone went quiet: the idle sweep makes the note).

/** Streams open at once in this process, each keeping up with speech on part of a core. */
const maxStreams = () => env().LIVE_CAPTION_STREAMS ?? Math.max(1, availableParallelism());
const IDLE_MS = 60_000;
/** The most silence written in place of audio a stream missed (a cut that failed): longer, it starts over. */
const MAX_GAP_SECONDS = 30;

type Entry = { stream: RecognitionStream; fedSec: number; idle: ReturnType<typeof setTimeout> };
const state = globalThis as unknown as { voicedraftCaptionStreams?: Map<string, Entry> };
const streams: Map<string, Entry> = (state.voicedraftCaptionStreams ??= new Map());
const keyOf = (userId: string, id: string) => `${userId}/${id}`;

/**
 * Writes the samples of a cut's decoded audio (`wavPath`, its data at `dataOffset`, starting at
 * `fromSec` of the recording) that the recording's stream has not heard yet, opening the stream
 * at the recording's start. Never throws: without a stream, captions come from the pieces alone.
 */
export async function hearForCaptions(
  recording: { userId: string; id: string },
  audio: { wavPath: string; dataOffset: number; fromSec: number; durationSec: number },
): Promise<void> {
  try {
    const key = keyOf(recording.userId, recording.id);
    let entry = streams.get(key);
    if (!entry) {
      // Only from the start: a stream begun later would not know where its words are.
      if (audio.fromSec > 0.05 || streams.size >= maxStreams()) return;
      const engine = await recognitionEngine();
      const stream = engine.openStream?.({ urgency: "live" });
      if (!stream || streams.has(key)) return stream?.close();
      entry = { stream, fedSec: 0, idle: setTimeout(() => undefined, 0) };
      streams.set(key, entry);
    }
    clearTimeout(entry.idle);
    entry.idle = setTimeout(() => void endCaptions(recording), IDLE_MS);
    entry.idle.unref?.();
    const end = audio.fromSec + audio.durationSec;
    if (end <= entry.fedSec) return;
    const gap = audio.fromSec - entry.fedSec;
    if (gap > MAX_GAP_SECONDS) return closeCaptions(recording);
    if (gap > 0) entry.stream.write(Buffer.alloc(Math.round(gap * SAMPLE_RATE) * 2));
    const skip = Math.max(0, Math.round((entry.fedSec - audio.fromSec) * SAMPLE_RATE) * 2);
    entry.stream.write(await readSamples(audio.wavPath, audio.dataOffset + skip));
    entry.fedSec = end;
  } catch (err) {
    log.warn("live captions: the stream recognizer could not hear the audio", { recording_id: recording.id, error: (err as Error).message });
  }
}

/** The words the stream heard from `afterSec` on (times in the recording), or none. */
export function provisionalWords(recording: { userId: string; id: string }, afterSec: number): Word[] {
  const entry = streams.get(keyOf(recording.userId, recording.id));
  if (!entry) return [];
  return entry.stream
    .segments()
    .flatMap((segment) => segment.words ?? [])
    .filter((word) => word.start >= afterSec - 0.05);
}

/** Stop: the stream hears what it was given, then ends. */
export async function endCaptions(recording: { userId: string; id: string }): Promise<void> {
  const key = keyOf(recording.userId, recording.id);
  const entry = streams.get(key);
  if (!entry) return;
  clearTimeout(entry.idle);
  streams.delete(key);
  await entry.stream.end().catch(() => undefined);
}

/** Ends a recording's stream at once (it is finished, or its stream missed too much). */
export function closeCaptions(recording: { userId: string; id: string }): void {
  const key = keyOf(recording.userId, recording.id);
  const entry = streams.get(key);
  if (!entry) return;
  clearTimeout(entry.idle);
  streams.delete(key);
  entry.stream.close();
}

/** How many recordings' streams this process has open. */
export const captionStreamsOpen = (): number => streams.size;

/** The samples of a WAV from a byte position to its end (a cut's rest: at most a minute or so). */
async function readSamples(wavPath: string, position: number): Promise<Buffer> {
  const file = await open(wavPath, "r");
  try {
    const { size } = await file.stat();
    const length = Math.max(0, size - position);
    const buffer = Buffer.alloc(length - (length % 2));
    if (buffer.length) await file.read(buffer, 0, buffer.length, position);
    return buffer;
  } finally {
    await file.close();
  }
}
