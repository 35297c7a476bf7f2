import { open } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { env } from "@/lib/env.ts";
import { log } from "@/lib/log.ts";
import type { Segment, Word } from "@/lib/notes/segment.ts";
import { SAMPLE_RATE } from "@/lib/transcription/audio/decode-audio.ts";
import { recognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { speakerMean } from "@/lib/transcription/recognition/speaker-profile.ts";
import type { Recognition, RecognitionStream } from "@/lib/transcription/recognizers/types.ts";

// Captions while the person speaks. The recording's pieces are cut in pauses every 5–12 s, and a
// piece's words came a piece late (bench:app-record: median 8.7 s after they were said). So each
// live recording also has a stream recognizer (PocketSphinx reading the samples as they arrive),
// which hears each phrase as soon as the speaker pauses after it: its words are the provisional
// captions after the last recognized piece, replaced by that piece's text once it is heard. At
// Stop, its words for the rest (after the last piece cut) are that rest's text, and the text of the pieces still waiting (heardByStream).
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

type Entry = { stream: RecognitionStream; fedSec: number; idle?: ReturnType<typeof setTimeout> };
const state = globalThis as unknown as { voicedraftCaptionStreams?: Map<string, Entry> };
const streams: Map<string, Entry> = (state.voicedraftCaptionStreams ??= new Map());
const keyOf = (userId: string, id: string) => `${userId}/${id}`;
type Recording = { userId: string; id: string };
/**
 * The longest Stop waits for the stream to end. Behind on a busy machine, it is still the quickest
 * way to the text (the pieces it would fall back to wait behind it, at a lower priority): this is
 * for a stream that hangs.
 */
const STOP_WAIT_MS = 60_000;

type CutAudio = { wavPath: string; dataOffset: number; fromSec: number; durationSec: number };

/**
 * Writes the samples of a cut's decoded audio (`wavPath`, its data at `dataOffset`, starting at
 * `fromSec` of the recording) that the recording's stream has not heard yet, opening the stream
 * at the recording's start. Never throws: without a stream, captions come from the pieces alone.
 */
export async function hearForCaptions(recording: Recording, audio: CutAudio): Promise<void> {
  try {
    const entry = await streamOf(recording, audio.fromSec);
    if (!entry) return;
    clearTimeout(entry.idle);
    entry.idle = setTimeout(() => void endCaptions(recording), IDLE_MS);
    entry.idle.unref?.();
    await feed(recording, entry, audio);
  } catch (err) {
    log.warn("live captions: the stream recognizer could not hear the audio", { recording_id: recording.id, error: (err as Error).message });
  }
}

/**
 * What a recording's stream heard, once it has heard all of it: the recognition of any of its
 * spans (times in the span, 0 at `start`). A phrase may straddle a span's edge: each word goes to
 * the span its middle is in.
 */
export type StreamHeard = (start: number, end?: number) => Recognition;

/**
 * Stop: the stream hears the rest of the recording (the cut's audio, after the pieces cut so far)
 * and ends. It had heard all but the last phrase already, so Stop waits for that phrase, not for
 * the rest to be cut and recognized, nor for the pieces still waiting for a recognizer
 * (bench:app-record, bench:live-load). Null when the recording has no stream in this process, or
 * its stream missed some of the audio or failed: the rest is then cut into pieces and recognized,
 * as without one.
 */
export async function heardByStream(recording: Recording, audio: CutAudio): Promise<StreamHeard | null> {
  const key = keyOf(recording.userId, recording.id);
  const entry = streams.get(key);
  if (!entry) return null;
  clearTimeout(entry.idle);
  streams.delete(key);
  try {
    if (entry.fedSec < audio.fromSec - 0.05 || !(await feed(recording, entry, audio))) throw new Error("the stream missed some of the audio");
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the stream took too long to end")), STOP_WAIT_MS).unref());
    // How far behind the speech the stream was at Stop (its last phrase heard), and how long it took to end.
    const behind = audio.fromSec + audio.durationSec - (entry.stream.segments().at(-1)?.end ?? 0);
    const started = performance.now();
    const words = (await Promise.race([entry.stream.end(), timeout])).map((segment) => segment.words ?? []);
    log.info("live recording: the stream heard the rest", { recording_id: recording.id, behind_sec: round(behind), ended_sec: round((performance.now() - started) / 1000) });
    const { engine, model } = entry.stream;
    return (start, end = Infinity) => {
      const at = (t: number) => Math.max(0, Math.round((t - start) * 1000) / 1000);
      const segments = words
        .map((phrase) => phrase.filter((w) => (w.start + w.end) / 2 >= start && (w.start + w.end) / 2 < end))
        .filter((phrase) => phrase.length)
        .map((phrase): Segment => {
          const shifted = phrase.map((w) => ({ ...w, start: at(w.start), end: at(w.end) }));
          return { start: shifted[0].start, end: shifted.at(-1)!.end, text: shifted.map((w) => w.word).join(" "), words: shifted };
        });
      return { text: segments.map((s) => s.text).join(" "), segments, language: "en", engine, ...(model && { model }) };
    };
  } catch (err) {
    entry.stream.close();
    log.warn("live recording: the stream could not hear the rest at Stop; it is recognized in pieces", { recording_id: recording.id, error: (err as Error).message });
    return null;
  }
}

/** The recording's stream, opened at its start (a stream begun later would not know where its words are). */
async function streamOf(recording: Recording, fromSec: number): Promise<Entry | undefined> {
  const key = keyOf(recording.userId, recording.id);
  const open = streams.get(key);
  if (open || fromSec > 0.05 || streams.size >= maxStreams()) return open;
  const engine = await recognitionEngine();
  const stream = await engine.openStream?.({ urgency: "realtime", cepstralMean: await speakerMean(recording.userId) });
  if (!stream) return undefined;
  // Two cuts opened one at once: the first stays.
  if (streams.has(key)) {
    stream.close();
    return streams.get(key);
  }
  const entry: Entry = { stream, fedSec: 0 };
  streams.set(key, entry);
  return entry;
}

/** Writes what the stream has not heard of `audio`; false when it missed too much (it is closed). */
async function feed(recording: Recording, entry: Entry, audio: CutAudio): Promise<boolean> {
  const end = audio.fromSec + audio.durationSec;
  if (end <= entry.fedSec) return true;
  const gap = audio.fromSec - entry.fedSec;
  if (gap > MAX_GAP_SECONDS) {
    closeCaptions(recording);
    return false;
  }
  if (gap > 0) entry.stream.write(Buffer.alloc(Math.round(gap * SAMPLE_RATE) * 2));
  const skip = Math.max(0, Math.round((entry.fedSec - audio.fromSec) * SAMPLE_RATE) * 2);
  entry.stream.write(await readSamples(audio.wavPath, audio.dataOffset + skip));
  entry.fedSec = end;
  return true;
}

/** The words the stream heard from `afterSec` on (times in the recording), or none. */
export function provisionalWords(recording: Recording, afterSec: number): Word[] {
  const entry = streams.get(keyOf(recording.userId, recording.id));
  if (!entry) return [];
  return entry.stream
    .segments()
    .flatMap((segment) => segment.words ?? [])
    .filter((word) => word.start >= afterSec - 0.05);
}

/** Stop: the stream hears what it was given, then ends. */
export async function endCaptions(recording: Recording): Promise<void> {
  const key = keyOf(recording.userId, recording.id);
  const entry = streams.get(key);
  if (!entry) return;
  clearTimeout(entry.idle);
  streams.delete(key);
  await entry.stream.end().catch(() => undefined);
}

/** Ends a recording's stream at once (it is finished, or its stream missed too much). */
export function closeCaptions(recording: Recording): void {
  const key = keyOf(recording.userId, recording.id);
  const entry = streams.get(key);
  if (!entry) return;
  clearTimeout(entry.idle);
  streams.delete(key);
  entry.stream.close();
}

const round = (s: number) => Math.round(s * 100) / 100;

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
