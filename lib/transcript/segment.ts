/** A timed span of a transcript, in seconds: what recognizers produce and the optimizer chunks. */
export type Segment = { start: number; end: number; text: string };
