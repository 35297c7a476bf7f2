import assert from "node:assert/strict";
import { test } from "node:test";
import { presentedTextOf, shownTextOf } from "@/lib/notes/store/shown-text.ts";

// Which text a note shows (lib/notes/store/shown-text.ts): one rule for the stored note and the note as
// the API answers it, used by the note's page, insights, rewrites, posts, exports and the assistant.

const stored = (editedAt: Date | null, optimization: { status: string; optimizedText: string | null } | null) => ({ text: "the recognized text", editedAt, optimization });
const presented = (edited_at: string | null, optimization: { status: string; text: string | null } | null) => ({ text: "the recognized text", edited_at, optimization });

test("the person's edit, else a completed clean-up that is not blank, else the recognized text", () => {
  const cases: [Parameters<typeof stored>, Parameters<typeof presented>, string, string][] = [
    [[new Date(), { status: "completed", optimizedText: "The clean text." }], ["2026-11-29T10:00:00Z", { status: "completed", text: "The clean text." }], "the recognized text", "edited"],
    [[null, { status: "completed", optimizedText: "The clean text." }], [null, { status: "completed", text: "The clean text." }], "The clean text.", "optimized"],
    [[null, { status: "completed", optimizedText: "  \n" }], [null, { status: "completed", text: "  \n" }], "the recognized text", "recognized"],
    [[null, { status: "running", optimizedText: null }], [null, { status: "running", text: null }], "the recognized text", "recognized"],
    [[null, { status: "failed", optimizedText: "half" }], [null, { status: "failed", text: "half" }], "the recognized text", "recognized"],
    [[null, null], [null, null], "the recognized text", "recognized"],
  ];
  for (const [row, answer, text, kind] of cases) {
    assert.deepEqual(shownTextOf(stored(...row)), { text, kind }, JSON.stringify(row));
    assert.deepEqual(presentedTextOf(presented(...answer)), { text, kind }, JSON.stringify(answer));
  }
});

test("a recording's joined parts, which no one edits, show their clean-up once it is complete", () => {
  assert.deepEqual(presentedTextOf({ text: "part one part two", optimization: { status: "completed", text: "Part one. Part two." } }), { text: "Part one. Part two.", kind: "optimized" });
  assert.deepEqual(presentedTextOf({ text: "part one part two", optimization: null }), { text: "part one part two", kind: "recognized" });
});
