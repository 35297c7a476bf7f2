/** One recognized word and when it was spoken, in seconds from the start of the recording. */
export type Word = { word: string; start: number; end: number };

/**
 * A timed span of a transcript, in seconds: what recognizers produce and the optimizer chunks.
 * `words`, when the engine gives them, are the span's words with their own times.
 */
export type Segment = { start: number; end: number; text: string; words?: Word[] };
