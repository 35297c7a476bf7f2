import { test } from "node:test";
import assert from "node:assert/strict";
import { nextLiveCut, parseSilences, parseWrittenSeconds, splitPoints } from "@/app/_lib/recording/split-points.ts";

test("a recording shorter than a chunk is not split", () => {
  assert.deepEqual(splitPoints(59, [{ start: 30, end: 31 }], { chunkSeconds: 60 }), []);
});

test("cuts land in the middle of the longest silence before each chunk mark", () => {
  const silences = [
    { start: 45, end: 45.5 },
    { start: 50, end: 52 }, // longest before 60 → cut at 51
    { start: 100, end: 101 }, // before 111 → cut at 100.5
  ];
  assert.deepEqual(splitPoints(150, silences, { chunkSeconds: 60, searchSeconds: 20 }), [51, 100.5]);
});

test("without a silence in reach, the cut is hard at the chunk mark", () => {
  assert.deepEqual(splitPoints(130, [{ start: 10, end: 11 }], { chunkSeconds: 60, searchSeconds: 20 }), [60, 120]);
});

test("no tiny last part: a cut that would leave less than the minimum is dropped", () => {
  assert.deepEqual(splitPoints(62, [], { chunkSeconds: 60, minPartSeconds: 5 }), []);
});

test("silencedetect and progress lines are parsed", () => {
  const log = [
    "[silencedetect @ 0x1] silence_start: -0.01",
    "[silencedetect @ 0x1] silence_end: 1.5 | silence_duration: 1.51",
    "size=      10kB time=00:01:02.50 bitrate=  24.0kbits/s",
    "[silencedetect @ 0x1] silence_start: 61",
    "size=      20kB time=00:03:05.25 bitrate=  24.0kbits/s",
  ];
  const duration = parseWrittenSeconds(log);
  assert.equal(duration, 185.25);
  assert.deepEqual(parseSilences(log, duration), [
    { start: 0, end: 1.5 },
    { start: 61, end: 185.25 },
  ]);
});

test("while recording, the next part ends in the longest finished pause between 30 and 60 s", () => {
  assert.equal(nextLiveCut(25, [{ start: 10, end: 12 }]), null, "too early to cut");
  assert.equal(nextLiveCut(40, [{ start: 20, end: 22 }]), null, "a pause before 30 s is too early");
  assert.equal(nextLiveCut(45, [{ start: 31, end: 31.6 }, { start: 38, end: 40 }]), 39);
  // A pause running at the end of what was recorded so far may be followed by more words: wait.
  assert.equal(nextLiveCut(44, [{ start: 42, end: 44 }]), null);
  // Nothing to cut at by 60 s: a hard cut, so no part grows past a minute.
  assert.equal(nextLiveCut(61, [{ start: 5, end: 6 }]), 60);
});
