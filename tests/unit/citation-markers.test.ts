import assert from "node:assert/strict";
import { test } from "node:test";
import { citedNumbers, keepGivenMarkers, markerFilter, tidy } from "@/lib/ask/citation-markers.ts";
import { passagesOf } from "@/lib/ask/passages.ts";

// The writer's [n] markers: only the numbers it was given are kept, also when a marker arrives
// split across the stream's pieces; and a note cut into timed passages.

const given = new Set([1, 2, 3]);

test("markers of numbers not given are left out; lists keep the given ones", () => {
  assert.equal(keepGivenMarkers("A [1], B [9], C [2, 7; 3].", given), "A [1], B , C [2][3].");
  assert.equal(tidy(keepGivenMarkers("A [1], B [9].", given)), "A [1], B.");
  assert.deepEqual(citedNumbers("A [3] B [9] C [1, 3]", given), [3, 1]);
  assert.deepEqual(citedNumbers("[12] and [0]", given), []);
});

test("streamed: a marker split across pieces is held until it closes, then kept or dropped", () => {
  const filter = markerFilter(given);
  const pieces = ["It is twelve [", "1", "] and not [", "9", "9] nor [2", "]", " done [3"];
  const shown = pieces.map((p) => filter.push(p));
  assert.deepEqual(shown, ["It is twelve ", "", "[1] and not ", "", " nor ", "[2]", " done "]);
  assert.equal(filter.flush(), "[3");
  assert.equal(shown.join("") + "[3", "It is twelve [1] and not  nor [2] done [3");
});

test("passages: a sentence a segment's words time; unpunctuated speech in pieces; an edit is lined up with the words said", () => {
  const said = "We agreed on twelve dollars. Then lunch.";
  const words = said.split(" ").map((word, i) => ({ word, start: i, end: i + 0.9 }));
  const note = { text: said, editedAt: null, optimization: null, segments: [{ start: 0, end: 7, text: said, words }] };
  assert.deepEqual(passagesOf(note), [
    { text: "We agreed on twelve dollars.", start: 0, end: 4.9, order: 0 },
    { text: "Then lunch.", start: 5, end: 6.9, order: 1 },
  ]);
  const long = Array.from({ length: 50 }, (_, i) => `w${i}`).join(" ");
  const pieces = passagesOf({ text: long, editedAt: null, optimization: null, segments: [{ start: 10, end: 60, text: long }] });
  assert.deepEqual(pieces.map((p) => [p.text.split(" ").length, p.start, p.end]), [[24, 10, 34], [24, 34, 58], [2, 58, 60]]);
  // A word fixed and a sentence typed in: the rest keeps its moments, the new sentence sits between.
  const fixed = { ...note, text: "We agreed on $12 dollars. Call Ann. Then lunch.", editedAt: new Date() };
  assert.deepEqual(passagesOf(fixed).map((p) => [p.text, p.start, p.end]), [["We agreed on $12 dollars.", 0, 4.9], ["Call Ann.", 4.9, 5], ["Then lunch.", 5, 6.9]]);
  // The clean-up is what is quoted, when the note shows it.
  const cleaned = { ...note, text: "we agreed on twelve dollars then lunch", optimization: { status: "completed", optimizedText: said } };
  assert.deepEqual(passagesOf(cleaned).map((p) => [p.text, p.start]), [["We agreed on twelve dollars.", 0], ["Then lunch.", 5]]);
  assert.deepEqual(passagesOf({ ...note, text: "Edited. Twice!", editedAt: new Date() }).map((p) => [p.text, p.start]), [["Edited.", null], ["Twice!", null]]);
});
