import { test } from "node:test";
import assert from "node:assert/strict";
import type { Transcription } from "@/app/_lib/api.ts";
import { groupByRecording } from "@/app/_lib/notes/group-transcripts.ts";

const transcript = (id: string, recording: Transcription["recording"]): Transcription => ({
  id,
  created_at: "2026-11-23T10:00:00.000Z",
  updated_at: "2026-11-23T10:00:00.000Z",
  edited_at: null,
  text_improved_at: null,
  text_improving: false, text_improved_undoable: false,
  title: null,
  tags: [],
  pinned: false,
  recorded_at: "2026-01-01T00:00:00.000Z",
  audio: null,
  audio_pending: false,
  insights_pending: false,
  insights: null,
  text: `text of ${id}`,
  raw_text: `text of ${id}`,
  language: "en",
  duration: 10,
  engine: "pocketsphinx",
  dictionary_replacements: 0,
  recording,
});

test("the parts of a split recording become one entry, in part order, where its newest part is", () => {
  // Newest first, as the list endpoint returns them.
  const entries = groupByRecording([
    transcript("c", { id: "rec-1", part: 2 }),
    transcript("plain", null),
    transcript("b", { id: "rec-1", part: 1 }),
    transcript("a", { id: "rec-1", part: 0 }),
  ]);
  assert.deepEqual(
    entries.map((e) => (e.kind === "recording" ? `${e.id}:${e.parts.map((p) => p.id).join("")}` : e.transcript.id)),
    ["rec-1:abc", "plain"],
  );
});

test("a recording uploaded in one part reads as a plain transcript", () => {
  const entries = groupByRecording([transcript("solo", { id: "rec-2", part: 0 }), transcript("old", null)]);
  assert.deepEqual(
    entries.map((e) => e.kind),
    ["transcript", "transcript"],
  );
});

test("parts loaded without part 0 (on a later page) still group under the recording", () => {
  const [entry] = groupByRecording([transcript("d", { id: "rec-3", part: 3 })]);
  assert.equal(entry.kind, "recording");
});
