import { test } from "node:test";
import assert from "node:assert/strict";
import { cuesOf, fileBase, toMarkdown, toPlainText, toSrt, toVtt } from "@/app/_lib/notes/note-files.ts";
import { timeText } from "@/app/_lib/notes/word-times.ts";

// One note out as a file: the formats people open elsewhere.

const NOTE = {
  title: "Café plans: Q3 / budget",
  text: "We meet on Monday. I need to call Anna about the invoice.",
  recordedAt: "2026-11-26T09:05:00.000Z",
  duration: 75,
  summary: "A meeting on Monday and a call to Anna.",
  keyPoints: ["We meet on Monday."],
  actionItems: [
    { text: "Call Anna about the invoice", done: false },
    { text: "Book the room", done: true },
  ],
};

test("file names are the title's letters and digits", () => {
  assert.equal(fileBase(NOTE.title), "Cafe-plans-Q3-budget");
  assert.equal(fileBase("!!!"), "note");
  assert.ok(fileBase("x".repeat(100)).length <= 60);
});

test("Markdown carries the title, when, the insights with ticks, and the text; plain text the title and text", () => {
  const md = toMarkdown(NOTE);
  assert.match(md, /^# Café plans: Q3 \/ budget\n\n\*2026-11-26 09:05 UTC · 1:15\*\n/);
  assert.match(md, /## Summary\n\nA meeting on Monday and a call to Anna\./);
  assert.match(md, /## Key points\n\n- We meet on Monday\./);
  assert.match(md, /## To do\n\n- \[ \] Call Anna about the invoice\n- \[x\] Book the room/);
  assert.match(md, /## Text\n\nWe meet on Monday\. I need to call Anna about the invoice\.\n$/);
  assert.equal(toMarkdown({ ...NOTE, summary: null, keyPoints: [], actionItems: [] }).includes("## Text"), false, "no sections for a note without insights");
  assert.equal(toPlainText(NOTE), `${NOTE.title}\n\n${NOTE.text}\n`);
});

test("a tagged note's Markdown begins with its tags as front matter (none: no front matter)", () => {
  assert.match(toMarkdown({ ...NOTE, tags: ["work", "client x"] }), /^---\ntags: \["work","client x"\]\n---\n\n# Café plans/);
  assert.match(toMarkdown({ ...NOTE, tags: [] }), /^# Café plans/);
});

test("subtitles are cut at sentence ends and pauses, timed by the shown words, in SRT and WebVTT", () => {
  const words = NOTE.text.match(/[\p{L}]+/gu)!.map((word, i) => ({ word, start: i * 0.4 + (i >= 4 ? 2 : 0), end: i * 0.4 + 0.35 + (i >= 4 ? 2 : 0) }));
  const cues = cuesOf(timeText(NOTE.text, words));
  assert.deepEqual(
    cues.map((c) => c.text),
    ["We meet on Monday.", "I need to call Anna about the invoice."],
  );
  assert.equal(cues[1].start, 3.6);
  const srt = toSrt(cues);
  assert.match(srt, /^1\n00:00:00,000 --> 00:00:01,550\nWe meet on Monday\.\n\n2\n00:00:03,600 --> 00:00:06,750\nI need to call Anna about the invoice\.\n$/);
  const vtt = toVtt(cues);
  assert.match(vtt, /^WEBVTT\n\n00:00:00\.000 --> 00:00:01\.550\nWe meet on Monday\.\n/);
  // A long sentence becomes cues of at most 6 s and two lines of about 42 characters.
  const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
  const longCues = cuesOf(timeText(long, long.split(" ").map((word, i) => ({ word, start: i * 0.5, end: i * 0.5 + 0.4 }))));
  for (const cue of longCues) {
    assert.ok(cue.end - cue.start <= 6.5, `${cue.start}–${cue.end}`);
    for (const line of toSrt([cue]).split("\n").slice(2, -1)) assert.ok(line.length <= 50, line);
  }
  assert.deepEqual(cuesOf(timeText("No times here.", [])), [], "no word times, no cues");
});
