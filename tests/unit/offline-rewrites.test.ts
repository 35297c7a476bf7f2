import assert from "node:assert/strict";
import { test } from "node:test";
import type { Insights } from "@/lib/insights/schemas.ts";
import { offlineUnavailable, writeOffline } from "@/lib/rewrites/offline-rewrites.ts";

// Which built-in styles the rules can write for a note, as "Rewrite as…" shows them without a
// writer (issue 44: "To-do list" looked pickable on a note that commits to nothing, then refused).

const insights = (over: Partial<Insights>): Insights => ({
  title: "Budget review",
  summary: "",
  key_points: [],
  action_items: [],
  written_by: "offline",
  offline_reason: null,
  updated_at: "2026-11-20T08:00:00.000Z",
  ...over,
});

test("a note that commits to nothing has no to-do list; with an action item it has", () => {
  const none = insights({ summary: "We looked at the numbers.", key_points: ["The numbers are fine."] });
  assert.equal(offlineUnavailable("todo_list", none), "Nothing to do in this note");
  assert.equal(writeOffline("todo_list", none, "en"), null, "the same rule refuses it when written");
  const some = insights({ action_items: [{ text: "Call Anna before Friday", done: false }] });
  assert.equal(offlineUnavailable("todo_list", some), null);
  assert.ok(writeOffline("todo_list", some, "en"));
});

test("a blog outline needs key points or a summary", () => {
  assert.equal(offlineUnavailable("blog_outline", insights({})), "Too short for an outline");
  assert.equal(offlineUnavailable("blog_outline", insights({ summary: "One line." })), null);
  assert.equal(offlineUnavailable("blog_outline", insights({ key_points: ["A point."] })), null);
});

test("styles the rules do not write are not theirs to refuse (the writer's, or the person's own)", () => {
  for (const style of ["email", "meeting_notes", "social_post", "0190f0f0-0000-7000-8000-000000000000"]) {
    assert.equal(offlineUnavailable(style, insights({})), null, style);
  }
});
