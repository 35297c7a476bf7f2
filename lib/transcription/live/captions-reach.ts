import type { LiveRecording } from "@/lib/transcription/schemas.ts";

// How far into a live recording its captions reach, as the server answers them and the phone
// shows them: the end of the last recognized piece (pieces are recognized in order), or of the
// provisional words heard after it. The phone asks for captions past it (GET …?captions_after).

/** Recognized pieces up to the first still being heard: their text is settled. */
export function settledPieces(live: Pick<LiveRecording, "pieces">): number {
  const firstWaiting = live.pieces.findIndex((p) => p.text === null);
  return firstWaiting < 0 ? live.pieces.length : firstWaiting;
}

/** Seconds into the recording the captions reach. */
export function captionsReach(live: Pick<LiveRecording, "pieces" | "provisional_until">): number {
  const settled = settledPieces(live);
  const recognized = settled ? live.pieces[settled - 1].end : 0;
  return Math.max(recognized, live.provisional_until ?? 0);
}
