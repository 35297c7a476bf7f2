import assert from "node:assert/strict";
import { test } from "node:test";
import { planPieces } from "@/lib/transcription/audio/plan-pieces.ts";
import { finalPieceLengths, LIVE_PIECE } from "@/lib/transcription/live/cut-live-pieces.ts";

// Speech of `seconds` in 2.6 s phrases with 0.4 s pauses: where a cut may fall.
const phrases = (seconds: number) =>
  Array.from({ length: Math.floor(seconds / 3) }, (_, i) => ({ start: i * 3, end: i * 3 + 2.6 }));

test("the rest at Stop is cut into one piece per recognizer, so they are heard in one round", () => {
  for (const [rest, recognizers] of [[14, 2], [21, 2], [12, 2], [21, 3]] as const) {
    const pieces = planPieces(phrases(rest), rest, finalPieceLengths(rest, recognizers));
    assert.ok(pieces.length <= recognizers, `${rest} s on ${recognizers} recognizers: ${pieces.length} pieces`);
    assert.ok(pieces.length >= Math.min(recognizers, 2), `${rest} s: still shared out (${pieces.length} piece)`);
  }
});

test("a short rest keeps pieces of at least 2.5 s, and no piece at Stop is longer than a live one", () => {
  assert.equal(finalPieceLengths(4, 2).maxSeconds, 6);
  assert.equal(finalPieceLengths(4, 2).minSeconds, 2.5);
  assert.equal(finalPieceLengths(60, 2).maxSeconds, LIVE_PIECE.maxSeconds);
  assert.equal(finalPieceLengths(60, 0).maxSeconds, LIVE_PIECE.maxSeconds); // no recognizer count: never divides by 0
});

test("at Stop, one long phrase is shared out too (cut at its quietest moment)", () => {
  const rest = 12.4; // one 11 s phrase without a pause, as the shipped speech gives
  const pieces = planPieces([{ start: 0.6, end: 11.6 }], rest, { ...finalPieceLengths(rest, 2), cutAt: (from, to) => (from + to) / 2 });
  assert.equal(pieces.length, 2);
});
