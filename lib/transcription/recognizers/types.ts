import type { Urgency } from "@/lib/transcription/recognizers/priority.ts";
import type { Segment } from "@/lib/segment.ts";
import { brandOf, hasBrand } from "@/lib/brand.ts";

// The contract every recognizer implements, and the errors they share.

export type RecognizeInput = {
  /** 16 kHz mono s16le WAV produced by decodeAudio. */
  wavPath: string;
  pcm?: Float32Array;
  durationSec: number;
  /** Words to expect (the request's prompt and the user's correct spellings). */
  prompt?: string;
  language?: string;
  signal?: AbortSignal;
  /**
   * Where the speaker's cepstral mean stood at the end of the recording's previous piece
   * (Recognition.cepstralMean); a recognizer that normalizes by it (PocketSphinx) starts there
   * instead of at its model's generic value, as it would had it heard the whole recording.
   */
  cepstralMean?: number[];
  /** Whose turn first when recognizers are busy: a live recording's piece, an upload (default), background work. */
  urgency?: Urgency;
};

export type { Segment };

export type Recognition = {
  text: string;
  segments: Segment[];
  language: string;
  engine: string;
  model?: string;
  /** The recognizer's estimate of the speaker's cepstral mean when it finished (PocketSphinx only). */
  cepstralMean?: number[];
};

export interface RecognitionEngine {
  readonly name: "whisper" | "pocketsphinx" | "openai";
  recognize(input: RecognizeInput): Promise<Recognition>;
  /**
   * The languages it recognizes ("any": it detects or takes any), and what to install for the
   * others; asked before a recording in another language is decoded.
   */
  languages?(): Promise<{ languages: "any" | string[]; hint: string }>;
  /**
   * A recognizer that hears audio as it arrives, for captions while someone speaks (PocketSphinx
   * only); null when it cannot open one now.
   */
  openStream?(input: StreamOptions): Promise<RecognitionStream | null>;
  close?(): Promise<void>;
}

/**
 * Audio heard as it arrives: each phrase is recognized as soon as the speaker pauses after it, so
 * its words come a fraction of a second after they were said, not after a piece of several seconds.
 */
export type StreamOptions = {
  urgency?: Urgency;
  /** Where this speaker's voice settled last time (PocketSphinx's cepstral mean). */
  cepstralMean?: number[];
  /** Called each time a phrase is heard. */
  onPhrase?: () => void;
  /** Called each time the guess at the phrase being spoken changes (RecognitionStream.guess). */
  onGuess?: () => void;
};

/** The words of the phrase still being spoken, as the recognizer hears them so far: they may change until it ends. */
export type PhraseGuess = { text: string; /** Seconds of the recording heard when it was made. */ untilSec: number };

export interface RecognitionStream {
  readonly engine: string;
  readonly model?: string;
  /** The next 16 kHz mono s16le samples, following those written before. */
  write(pcm: Buffer): void;
  /** The phrases heard so far; times in seconds from the first sample written. */
  segments(): Segment[];
  /** The phrase being spoken, heard so far (none between phrases, or where the engine guesses nothing). */
  guess?(): PhraseGuess | undefined;
  /** Where guesses are made: how far it had heard when the last phrase ended (0 before), so that captions never reach back when a guess settles. */
  readonly heardUntil?: number;
  /** No more audio: resolves with every phrase once the last one is heard; rejects when the recognizer failed. */
  end(): Promise<Segment[]>;
  /** Stops at once, hearing nothing more. */
  close(): void;
}

const UNAVAILABLE = brandOf("EngineUnavailableError");
const BUSY = brandOf("EngineBusyError");

/** The engine cannot run here (not installed, no model, not configured); the message says how to fix it. */
export class EngineUnavailableError extends Error {
  readonly [UNAVAILABLE] = true;
  constructor(message: string) {
    super(message);
    this.name = "EngineUnavailableError";
  }

  /** Any copy's (lib/brand.ts): the engine is one per process. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, UNAVAILABLE);
  }
}

/** Too many recognitions are waiting; try again after `retryAfterSeconds`. */
export class EngineBusyError extends Error {
  readonly [BUSY] = true;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = "EngineBusyError";
  }

  /** Any copy's (lib/brand.ts): the engine and its queues are one per process. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, BUSY);
  }
}
