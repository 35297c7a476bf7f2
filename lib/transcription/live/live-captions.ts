import { availableParallelism } from "node:os";
import { env } from "@/lib/env.ts";
import { reportLiveWork } from "@/lib/live-work.ts";
import { log } from "@/lib/log.ts";
import type { Segment, Word } from "@/lib/segment.ts";
import type { AudioFormat } from "@/lib/transcription/audio/audio-format.ts";
import { openStreamDecoder, type StreamDecoder } from "@/lib/transcription/audio/stream-decoder.ts";
import { recognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { speakerMean } from "@/lib/transcription/recognition/speaker-profile.ts";
import type { PhraseGuess, Recognition, RecognitionStream } from "@/lib/transcription/recognizers/types.ts";

// Captions while the person speaks. The recording's pieces are cut in pauses every 5–12 s, and a
// piece's words came a piece late (bench:app-record: median 8.7 s after they were said). So each
// live recording also has a stream recognizer (PocketSphinx reading the samples as they arrive),
// which hears each phrase as soon as the speaker pauses after it: its words are the provisional
// captions after the last recognized piece, replaced by that piece's text once it is heard. At
// Stop, its words for the rest (after the last piece cut) are that rest's text, and the text of
// the pieces still waiting (endCaptionStream).
//
// Each PATCH's new bytes, once stored, are written straight to a decoder of the recording's own
// (stream-decoder.ts), whose samples go to the stream. Until 2026-11-29 the stream was fed by the
// cuts, which read the whole recording from the database and decoded its rest on every PATCH: on
// a busy server the stream fell 12 s behind (bench:live-load). A stream lives in the process that
// serves the recording's PATCH requests, and ends at Stop, or when no audio has come for a while
// (the phone went quiet: the idle sweep makes the note).

/**
 * Streams open at once in this process, each keeping up with speech on part of a core (here,
 * where PocketSphinx is slow, 0.2–0.45 of one): one more than the cores, so that three people
 * recording on a 2-core server all get captions as they speak and Stop from their stream.
 */
const maxStreams = () => env().LIVE_CAPTION_STREAMS ?? availableParallelism() + 1;
const IDLE_MS = 60_000;
/** The most bytes held for a gap before them (a PATCH served elsewhere, or out of order): beyond, the stream has missed audio, and ends. */
const MAX_HELD_BYTES = 4 * 1024 * 1024;

type Entry = {
  /** Bytes of the recording written to the decoder: the next ones it takes start here. */
  fedBytes: number;
  /** Bytes that came before those in front of them, by offset. */
  held: Map<number, Uint8Array>;
  decoder?: StreamDecoder;
  stream?: RecognitionStream;
  opened: Promise<boolean>;
  idle?: ReturnType<typeof setTimeout>;
  /** Closed: it hears nothing more. */
  shut?: boolean;
  /** Told of each phrase heard, and each new guess at the one being spoken (GET …?captions_after waiting for it). */
  listeners: Set<() => void>;
  /** A phrase ended since takeStreamProgress last asked. */
  phraseEnded?: boolean;
};
const state = globalThis as unknown as {
  voicedraftCaptionStreams?: Map<string, Entry>;
  voicedraftEndedStreams?: Map<string, { entry: Entry; result: Promise<StreamEnded | null> }>;
};
const streams: Map<string, Entry> = (state.voicedraftCaptionStreams ??= new Map());
const keyOf = (userId: string, id: string) => `${userId}/${id}`;
type Recording = { userId: string; id: string };
/**
 * The longest Stop waits for the stream to end. Behind on a busy machine, it is still the quickest
 * way to the text (the pieces it would fall back to wait behind it, at a lower priority): this is
 * for a stream that hangs.
 */
const STOP_WAIT_MS = 60_000;

/**
 * A PATCH's new bytes (from `offset` of the recording), once stored: written to the recording's
 * decoder, and so heard by its stream. The first bytes open the stream. Never throws: without a
 * stream, captions come from the pieces alone.
 */
export function hearForCaptions(recording: Recording & { format: string }, offset: number, bytes: Uint8Array): void {
  try {
    const key = keyOf(recording.userId, recording.id);
    let entry = streams.get(key);
    if (!entry) {
      // A stream begun later would not know where its words are in the recording.
      if (offset !== 0 || streams.size >= maxStreams()) return;
      entry = open(recording);
    }
    clearTimeout(entry.idle);
    entry.idle = setTimeout(() => void endCaptions(recording), IDLE_MS);
    entry.idle.unref?.();
    entry.held.set(offset, bytes);
    drain(recording, entry);
  } catch (err) {
    log.warn("live captions: the stream recognizer could not hear the audio", { recording_id: recording.id, error: (err as Error).message });
  }
}

/** What a recording's stream heard of any of its spans (times in the span, 0 at `start`). */
export type StreamHeard = (start: number, end?: number) => Recognition;
type StreamEnded = { heard: StreamHeard; untilSec: number };

/**
 * Stop: the stream hears the last bytes and ends. It had heard all but the last phrase already,
 * so Stop waits for that phrase, not for the rest to be cut and recognized, nor for the pieces
 * still waiting for a recognizer (bench:app-record, bench:live-load). `heard`: a phrase may
 * straddle a span's edge, so each word goes to the span its middle is in; `untilSec`: how much of
 * the recording the stream heard. Null when the recording has no stream in this process, or its
 * stream missed some of the `bytes` the recording holds, or failed: the rest is then cut into
 * pieces and recognized, as without one. The stream ends at once; `bytes` may still be read
 * meanwhile (Stop reads the recording's row beside it: on a busy database, a wait of its own).
 */
export async function endCaptionStream(recording: Recording, bytes: number | Promise<number>): Promise<StreamEnded | null> {
  const key = keyOf(recording.userId, recording.id);
  const entry = streams.get(key);
  if (!entry) {
    // A Stop tried again (the first failed after the stream ended): what the stream heard then.
    const before = ended.get(key);
    return before && before.entry.fedBytes >= (await bytes) ? before.result : null;
  }
  clearTimeout(entry.idle);
  streams.delete(key);
  wake(entry);
  const result = hearTheRest(recording, entry, bytes);
  ended.set(key, { entry, result });
  setTimeout(() => ended.get(key)?.result === result && ended.delete(key), ENDED_KEPT_MS).unref();
  return result;
}

/** Streams ended at Stop, kept for a Stop tried again after a failure (a busy database, a lost answer). */
const ended: Map<string, { entry: Entry; result: Promise<StreamEnded | null> }> = (state.voicedraftEndedStreams ??= new Map());
const ENDED_KEPT_MS = 10 * 60_000;

async function hearTheRest(recording: Recording, entry: Entry, bytes: number | Promise<number>): Promise<StreamEnded | null> {
  const started = performance.now();
  try {
    if (!(await entry.opened) || !entry.decoder || !entry.stream) return null;
    const { decoder, stream } = entry;
    // How far behind the speech the stream was at Stop (its last phrase heard).
    const behind = decoder.decodedSeconds() - (stream.segments().at(-1)?.end ?? 0);
    let decodedAt = NaN;
    const ending = (async () => {
      await decoder.end();
      decodedAt = performance.now();
      return stream.end();
    })();
    const expected = await bytes;
    if (entry.fedBytes < expected) {
      ending.catch(() => undefined); // shut below
      throw new Error(`the stream missed some of the audio (${entry.fedBytes} of ${expected} bytes)`);
    }
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the stream took too long to end")), STOP_WAIT_MS).unref());
    const words = (await Promise.race([ending, timeout])).map((segment) => segment.words ?? []);
    const untilSec = decoder.decodedSeconds();
    log.info("live recording: the stream heard the rest", { recording_id: recording.id, behind_sec: round(behind), decoded_sec: round((decodedAt - started) / 1000), ended_sec: round((performance.now() - started) / 1000), heard_sec: round(untilSec) });
    const { engine, model } = stream;
    const heard: StreamHeard = (start, end = Infinity) => {
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
    return { heard, untilSec };
  } catch (err) {
    shut(entry);
    log.warn("live recording: the stream could not hear the rest at Stop; it is recognized in pieces", { recording_id: recording.id, error: (err as Error).message });
    return null;
  }
}

/** A recording's decoder and stream, opening (the engine may have none: whisper). */
function open(recording: Recording & { format: string }): Entry {
  const key = keyOf(recording.userId, recording.id);
  const entry: Entry = { fedBytes: 0, held: new Map(), opened: Promise.resolve(false), listeners: new Set() };
  streams.set(key, entry);
  entry.opened = (async () => {
    const engine = await recognitionEngine();
    const stream = await engine.openStream?.({
      urgency: "realtime",
      cepstralMean: await speakerMean(recording.userId),
      onPhrase: () => ((entry.phraseEnded = true), wake(entry)),
      onGuess: () => wake(entry),
    });
    if (!stream) throw new Error(`the ${engine.name} engine hears no stream`);
    if (entry.shut) {
      // Closed while it opened.
      stream.close();
      return false;
    }
    entry.stream = stream;
    entry.decoder = openStreamDecoder({ ffmpeg: env().FFMPEG_PATH, format: recording.format as AudioFormat, urgency: "realtime", onSamples: (pcm) => stream.write(pcm) });
    drain(recording, entry);
    return true;
  })().catch((err: unknown) => {
    if (streams.get(key) === entry) streams.delete(key);
    shut(entry);
    log.info("live captions: no stream recognizer for this recording; captions come a piece at a time", { recording_id: recording.id, reason: (err as Error).message });
    return false;
  });
  return entry;
}

/** Writes the held bytes that follow those written, in order; ends the stream when it has missed too much. */
function drain(recording: Recording, entry: Entry): void {
  if (!entry.decoder) return;
  for (let next = entry.held.get(entry.fedBytes); ; next = entry.held.get(entry.fedBytes)) {
    // A body that overlaps what was written (a retry) starts before fedBytes.
    if (!next) {
      const overlap = [...entry.held].find(([offset, bytes]) => offset < entry.fedBytes && offset + bytes.length > entry.fedBytes);
      if (!overlap) break;
      next = overlap[1].subarray(entry.fedBytes - overlap[0]);
      entry.held.delete(overlap[0]);
    } else entry.held.delete(entry.fedBytes);
    entry.decoder.write(next);
    entry.fedBytes += next.length;
  }
  for (const [offset, bytes] of entry.held) if (offset + bytes.length <= entry.fedBytes) entry.held.delete(offset);
  let held = 0;
  for (const bytes of entry.held.values()) held += bytes.length;
  if (held > MAX_HELD_BYTES) {
    log.warn("live captions: the stream missed some of the audio; captions come a piece at a time", { recording_id: recording.id });
    closeCaptions(recording);
  }
}

/** Tells those waiting for captions that they changed (a phrase heard, the stream ended). */
function wake(entry: Entry): void {
  for (const listener of [...entry.listeners]) listener();
}

function shut(entry: Entry): void {
  entry.shut = true;
  wake(entry);
  clearTimeout(entry.idle);
  entry.decoder?.close();
  entry.stream?.close();
}

/**
 * What the stream heard from `afterSec` on (times in the recording): the words of the phrases
 * that ended, and its guess at the phrase being spoken (sphinx-stream), which may still change.
 */
export function provisionalWords(recording: Recording, afterSec: number): { words: Word[]; guess?: PhraseGuess; heardUntil: number } {
  const entry = streams.get(keyOf(recording.userId, recording.id));
  if (!entry?.stream) return { words: [], heardUntil: 0 };
  const words = entry.stream
    .segments()
    .flatMap((segment) => segment.words ?? [])
    .filter((word) => word.start >= afterSec - 0.05);
  const guess = entry.stream.guess?.();
  return { words, heardUntil: entry.stream.heardUntil ?? 0, ...(guess?.text && guess.untilSec > afterSec && { guess }) };
}

/**
 * While the recording's stream hears it in this process: the seconds its decoder has decoded, and
 * whether it heard a phrase end (a pause) since this was last asked. Undefined without one
 * (whisper, beyond LIVE_CAPTION_STREAMS, another process, after Stop).
 */
export function takeStreamProgress(recording: Recording): { decodedSeconds: number; phraseEnded: boolean } | undefined {
  const entry = streams.get(keyOf(recording.userId, recording.id));
  if (!entry?.decoder || entry.shut) return undefined;
  const { phraseEnded } = entry;
  entry.phraseEnded = false;
  return { decodedSeconds: entry.decoder.decodedSeconds(), phraseEnded: phraseEnded ?? false };
}

/**
 * Calls `listener` each time the recording's stream hears a phrase (or ends), until the returned
 * function is called. Nothing happens when the recording has no stream in this process.
 */
export function whenPhraseHeard(recording: Recording, listener: () => void): () => void {
  const entry = streams.get(keyOf(recording.userId, recording.id));
  if (!entry || entry.shut) return () => undefined;
  entry.listeners.add(listener);
  return () => entry.listeners.delete(listener);
}

/** The phone went quiet: the stream hears what it was given, then ends. */
export async function endCaptions(recording: Recording): Promise<void> {
  const key = keyOf(recording.userId, recording.id);
  const entry = streams.get(key);
  if (!entry) return;
  clearTimeout(entry.idle);
  streams.delete(key);
  wake(entry);
  if (!(await entry.opened)) return;
  await entry.decoder?.end().catch(() => undefined);
  await entry.stream?.end().catch(() => undefined);
}

/** Ends a recording's stream at once (it is finished, or its stream missed too much). */
export function closeCaptions(recording: Recording): void {
  const key = keyOf(recording.userId, recording.id);
  const entry = streams.get(key);
  if (!entry) return;
  streams.delete(key);
  shut(entry);
}

const round = (s: number) => Math.round(s * 100) / 100;

/** How many recordings' streams this process has open. */
export const captionStreamsOpen = (): number => streams.size;
reportLiveWork(captionStreamsOpen);
