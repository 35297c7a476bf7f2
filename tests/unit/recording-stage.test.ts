import { test } from "node:test";
import assert from "node:assert/strict";
import type { QueuedUpload } from "@/app/_lib/local-db.ts";
import { recordingStage } from "@/app/_lib/recording/recording-progress.ts";

// One recording's queued parts, in one stage: what the progress card and 'On this phone' say.

const part = (n: number, change: Partial<QueuedUpload> = {}): QueuedUpload => ({
  id: `rec-${n}`,
  owner: "u",
  batchId: "rec",
  recordingId: "rec",
  part: n,
  parts: 3,
  createdAt: 1000 + n,
  fileName: `recording-2026-01-01T00-00-00-000Z-part-${n}.ogg`,
  mimeType: "audio/ogg",
  blob: null,
  idempotencyKey: `vd-upload-rec-${n}`,
  status: "done",
  attempts: 1,
  nextAttemptAt: 0,
  error: null,
  transcriptionId: `t${n}`,
  ...change,
});

test("every part text: done, and the joined note opens (a single upload opens its own note)", () => {
  assert.deepEqual(recordingStage([part(3), part(1), part(2)], true), { kind: "done", href: "/transcripts/recordings/rec" });
  assert.deepEqual(recordingStage([part(1, { parts: 1 })], true), { kind: "done", href: "/transcripts/t1" });
});

test("still recording (parts not known yet): the parts that are text do not make it done", () => {
  const stage = recordingStage([part(1, { parts: 0 }), part(2, { parts: 0 })], true);
  assert.notEqual(stage?.kind, "done");
});

test("the earlier part still being recognized while the last one is sent: the card names the one being sent", () => {
  const stage = recordingStage([part(1), part(2, { status: "uploading", blob: new Blob([new Uint8Array(10)]) }), part(3, { status: "uploading", blob: new Blob([new Uint8Array(2_000)]) })], true);
  // No bytes reported yet for either (a service worker sends without progress): the lowest is named.
  assert.deepEqual(stage, { kind: "uploading", part: 2, parts: 3, loaded: 0, total: 10 });
});

test("a part that could not be read fails the recording, with its reason", () => {
  const stage = recordingStage([part(1), part(2, { status: "failed", error: "The audio is empty." }), part(3, { status: "pending" })], true);
  assert.deepEqual(stage, { kind: "failed", message: "The audio is empty." });
});

test("offline only when offline; online and due it is about to go; backed off it waits with the reason", () => {
  const items = [part(1), part(2, { status: "pending", blob: new Blob([new Uint8Array(5)]) }), part(3, { status: "pending" })];
  assert.deepEqual(recordingStage(items, false), { kind: "offline", parts: 3 });
  assert.deepEqual(recordingStage(items, true), { kind: "uploading", part: 2, parts: 3, loaded: 0, total: 5 });
  const backedOff = [part(1), part(2, { status: "pending", error: "No connection; will retry.", nextAttemptAt: Date.now() + 60_000 })];
  assert.deepEqual(recordingStage(backedOff, true), { kind: "waiting", parts: 3, error: "No connection; will retry." });
});

test("a recording too large to send as it is is being made smaller (offline too); if that failed, it waits with the reason", () => {
  const whole = part(1, { parts: 1, status: "pending", transcriptionId: null, prepare: true, blob: new Blob([new Uint8Array(5)]) });
  assert.deepEqual(recordingStage([whole], true), { kind: "preparing", step: "converting", seconds: 0 });
  assert.deepEqual(recordingStage([whole], false), { kind: "preparing", step: "converting", seconds: 0 });
  const why = "Too large to send as it is (312 MB), and it could not be made smaller on this phone this time.";
  assert.deepEqual(recordingStage([{ ...whole, error: why }], true), { kind: "waiting", parts: 1, error: why });
});
