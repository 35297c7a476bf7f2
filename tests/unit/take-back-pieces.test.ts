import assert from "node:assert/strict";
import { test } from "node:test";
import { piecesToTakeBack, TAKE_BACK_RUNNING_SECONDS, type TailPiece } from "@/lib/transcription/live/take-back-last-pieces.ts";

// Which of a live recording's last pieces finish cuts again with the rest (shared among the
// recognizers) instead of waiting for them as they are.

const two = { piecesCut: 5, recognizers: 2, canStopRuns: true };
const done = (index: number): TailPiece => ({ index, status: "completed" });
const pending = (index: number): TailPiece => ({ index, status: "pending" });
const runningHere = (index: number, seconds: number): TailPiece => ({ index, status: "running", runningHereSeconds: seconds });

test("a last piece only just started here is taken back, with the pending ones after it", () => {
  assert.deepEqual(piecesToTakeBack([done(2), done(3), runningHere(4, 0.2)], two), [4]);
  assert.deepEqual(piecesToTakeBack([done(2), runningHere(3, 0.4), pending(4)], two), [3, 4]);
  assert.deepEqual(piecesToTakeBack([done(2), pending(3), pending(4)], two), [3, 4]);
});

test("a run well under way, one in another process, or a finished piece stays, and so does every piece before it", () => {
  assert.deepEqual(piecesToTakeBack([done(3), runningHere(4, TAKE_BACK_RUNNING_SECONDS)], two), []);
  assert.deepEqual(piecesToTakeBack([done(3), { index: 4, status: "running" }], two), []);
  assert.deepEqual(piecesToTakeBack([pending(2), runningHere(3, 3), pending(4)], two), [4]);
  assert.deepEqual(piecesToTakeBack([pending(3), done(4)], two), []);
  assert.deepEqual(piecesToTakeBack([pending(2), { index: 3, status: "failed" }, pending(4)], two), [4]);
});

test("nothing is taken with a single recognizer, nor a run the engine cannot stop (whisper)", () => {
  assert.deepEqual(piecesToTakeBack([done(3), pending(4)], { ...two, recognizers: 1 }), []);
  assert.deepEqual(piecesToTakeBack([done(3), runningHere(4, 0.1)], { ...two, canStopRuns: false }), []);
  // A pending piece has no run to stop.
  assert.deepEqual(piecesToTakeBack([done(3), pending(4)], { ...two, canStopRuns: false }), [4]);
});

test("only pieces that end the recording, without a gap, are taken", () => {
  // Piece 4 is missing (not the last cut), so piece 3 is not at the end: nothing is taken.
  assert.deepEqual(piecesToTakeBack([done(2), pending(3)], two), []);
  assert.deepEqual(piecesToTakeBack([pending(1), pending(3), pending(4)], two), [3, 4]);
  assert.deepEqual(piecesToTakeBack([], two), []);
});
