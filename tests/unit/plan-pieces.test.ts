import { test } from "node:test";
import assert from "node:assert/strict";
import { planPieces, type Piece } from "@/lib/transcription/audio/plan-pieces.ts";
import type { SpeechSpan } from "@/lib/transcription/audio/vad.ts";

/** Speech that talks `talk` seconds, pauses `pause` seconds, and so on, for `total` seconds. */
function speaking(total: number, talk: number, pause: number, from = 0): SpeechSpan[] {
  const spans: SpeechSpan[] = [];
  for (let t = from; t + talk <= total; t += talk + pause) spans.push({ start: t, end: t + talk });
  return spans;
}

/** No piece boundary lies strictly inside a span of speech. */
function assertNoCutInsideSpeech(pieces: Piece[], spans: SpeechSpan[]) {
  for (const p of pieces) {
    for (const edge of [p.start, p.end]) {
      const inside = spans.find((s) => edge > s.start + 1e-9 && edge < s.end - 1e-9);
      assert.equal(inside, undefined, `piece edge ${edge} cuts speech ${JSON.stringify(inside)}`);
    }
  }
}

/** Every span of speech lies wholly inside one piece. */
function assertAllSpeechCovered(pieces: Piece[], spans: SpeechSpan[]) {
  for (const s of spans) {
    assert.ok(
      pieces.some((p) => p.start <= s.start + 1e-9 && p.end >= s.end - 1e-9),
      `speech ${JSON.stringify(s)} is in no piece of ${JSON.stringify(pieces)}`,
    );
  }
}

function assertOrderedDisjoint(pieces: Piece[]) {
  for (let i = 1; i < pieces.length; i++) assert.ok(pieces[i].start >= pieces[i - 1].end - 1e-9, `pieces ${i - 1} and ${i} overlap`);
}

test("no speech, no pieces", () => {
  assert.deepEqual(planPieces([], 600), []);
  // Spans outside the recording or empty ones are no speech either.
  assert.deepEqual(planPieces([{ start: 700, end: 710 }, { start: 5, end: 5 }], 600), []);
});

test("a short recording is one piece, padded by 0.2 s around its speech", () => {
  assert.deepEqual(planPieces([{ start: 1, end: 4 }, { start: 4.8, end: 9 }], 12), [{ start: 0.8, end: 9.2 }]);
});

test("padding stops at the recording's edges", () => {
  assert.deepEqual(planPieces([{ start: 0.05, end: 9.95 }], 10), [{ start: 0, end: 10 }]);
});

test("continuous talk with short pauses: pieces of 30–60 s (the first 20–30 s), cut only in pauses, covering all speech", () => {
  const spans = speaking(600, 4.5, 0.7); // 600 s, a 0.7 s breath every 4.5 s
  const pieces = planPieces(spans, 600);
  assert.ok(pieces.length >= 10 && pieces.length <= 20, `${pieces.length} pieces`);
  const firstLength = pieces[0].end - pieces[0].start;
  assert.ok(firstLength >= 20 && firstLength <= 30.4, `the first piece is ${firstLength} s`);
  for (const p of pieces.slice(1, -1)) {
    const length = p.end - p.start;
    assert.ok(length >= 30 && length <= 60.4, `piece ${JSON.stringify(p)} is ${length} s`);
  }
  assertNoCutInsideSpeech(pieces, spans);
  assertAllSpeechCovered(pieces, spans);
  assertOrderedDisjoint(pieces);
});

test("the first piece is cut sooner only when the recording is cut anyway: its text streams first", () => {
  const whole = planPieces(speaking(55, 4.5, 0.7), 55); // fits one piece: stays whole
  assert.equal(whole.length, 1);
  const long = planPieces(speaking(150, 4.5, 0.7), 150);
  assert.ok(long[0].end - long[0].start <= 30.4, `first piece ${JSON.stringify(long[0])}`);
  const custom = planPieces(speaking(150, 4.5, 0.7), 150, { firstMinSeconds: 40, firstMaxSeconds: 50 });
  const length = custom[0].end - custom[0].start;
  assert.ok(length >= 40 && length <= 50.4, `first piece ${JSON.stringify(custom[0])}`);
});

test("among the pauses in reach, the cut takes the longest", () => {
  // Talk in 5 s spans with 0.5 s pauses, except one 1.5 s pause ending at 41.5 s.
  const spans = [...speaking(40, 5, 0.5), { start: 41.5, end: 46 }, ...speaking(120, 5, 0.5, 46.5)];
  const pieces = planPieces(spans, 120);
  const firstEnd = pieces[0].end;
  // The longest pause (after the span ending near 38.5 s… 40 s) ends the first piece, padded 0.2 s.
  const pauseBefore = spans.find((s) => s.start === 41.5)!;
  const previous = spans[spans.indexOf(pauseBefore) - 1];
  assert.equal(firstEnd, Math.round((previous.end + 0.2) * 1000) / 1000);
  assert.equal(pieces[1].start, 41.3);
});

test("a pause longer than maxSilenceSeconds ends a piece and is not recognized", () => {
  const spans = [
    { start: 1, end: 6 },
    { start: 11, end: 15 }, // after a 5 s pause
    { start: 16, end: 20 }, // after 1 s: same piece
  ];
  const pieces = planPieces(spans, 25);
  assert.deepEqual(pieces, [
    { start: 0.8, end: 6.2 },
    { start: 10.8, end: 20.2 },
  ]);
  // No piece holds more than 2 s of silence in a row.
  const silent = pieces.map((p) => ({ p, speech: spans.filter((s) => s.start >= p.start && s.end <= p.end) }));
  for (const { p, speech } of silent) {
    let t = p.start;
    for (const s of speech) {
      assert.ok(s.start - t <= 2, `silence of ${s.start - t} s in ${JSON.stringify(p)}`);
      t = s.end;
    }
    assert.ok(p.end - t <= 2);
  }
});

test("minutes of silence between two remarks: two short pieces, the silence dropped", () => {
  const pieces = planPieces([{ start: 2, end: 8 }, { start: 300, end: 310 }], 320);
  assert.deepEqual(pieces, [
    { start: 1.8, end: 8.2 },
    { start: 299.8, end: 310.2 },
  ]);
  const recognized = pieces.reduce((sum, p) => sum + p.end - p.start, 0);
  assert.ok(recognized < 20, `${recognized} s of 320 s recognized`);
});

test("padding takes at most half of a short pause, so neighbouring pieces never overlap", () => {
  // 70 s of talk whose only pause in reach is 0.2 s long: pieces meet in its middle.
  const spans = [{ start: 0, end: 40 }, { start: 40.2, end: 70 }];
  const pieces = planPieces(spans, 70);
  assert.deepEqual(pieces, [
    { start: 0, end: 40.1 },
    { start: 40.1, end: 70 },
  ]);
});

test("a span up to maxSeconds × 1.5 is never cut, even if the piece gets longer than maxSeconds", () => {
  const spans = [{ start: 0, end: 85 }, { start: 86, end: 100 }];
  const pieces = planPieces(spans, 100);
  assert.deepEqual(pieces, [
    { start: 0, end: 85.2 },
    { start: 85.8, end: 100 },
  ]);
  assertNoCutInsideSpeech(pieces, spans);
});

test("a single span longer than maxSeconds × 1.5 is cut hard at the limit, or where cutAt says", () => {
  const spans = [{ start: 10, end: 200 }];
  const hard = planPieces(spans, 210);
  assert.deepEqual(hard, [
    { start: 9.8, end: 70 },
    { start: 70, end: 130 },
    { start: 130, end: 200.2 },
  ]);
  // cutAt picks within the second half of the allowed length; a choice outside it is clamped.
  const asked: [number, number][] = [];
  const soft = planPieces(spans, 210, {
    cutAt: (from, to) => {
      asked.push([from, to]);
      return asked.length === 1 ? from + 3 : -5;
    },
  });
  assert.deepEqual(asked[0], [40, 70]);
  assert.equal(soft[0].end, 43);
  assert.equal(soft[1].start, 43);
  assert.equal(soft[1].end, 73); // -5 clamped to the earliest allowed cut, 43 + 30
  // What is left (70 s) is not longer than maxSeconds × 1.5, so it stays whole.
  assert.deepEqual(soft.at(-1), { start: 133, end: 200.2 });
  for (const p of soft) assert.ok(p.end - p.start <= 90.2);
});

test("options: shorter pieces, no padding, a stricter silence limit", () => {
  const spans = speaking(100, 3, 1.5);
  const pieces = planPieces(spans, 100, { minSeconds: 5, maxSeconds: 10, padSeconds: 0, maxSilenceSeconds: 1 });
  // Every pause (1.5 s) is longer than the limit: each span is its own piece, exactly.
  assert.deepEqual(pieces, spans);
  const longer = planPieces(spans, 100, { minSeconds: 5, maxSeconds: 10, padSeconds: 0 });
  for (const p of longer) assert.ok(p.end - p.start <= 10, JSON.stringify(p));
  assertNoCutInsideSpeech(longer, spans);
  assertAllSpeechCovered(longer, spans);
  assert.throws(() => planPieces(spans, 100, { minSeconds: 20, maxSeconds: 10 }), RangeError);
});

test("unsorted, overlapping spans are merged first", () => {
  const pieces = planPieces([{ start: 5, end: 9 }, { start: 1, end: 6 }, { start: 8, end: 8.5 }], 10);
  assert.deepEqual(pieces, [{ start: 0.8, end: 9.2 }]);
});
