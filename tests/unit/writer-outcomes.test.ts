import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { forgetWriterOutcomes, recentWriting, recordWriterOutcome, rekeyWriterOutcomes, whatItWrote, OUTCOMES_KEPT } from "@/lib/writer/outcomes.ts";

// Issue 69: the writer's state is what its last tasks did (lib/writer/outcomes.ts).

beforeEach(() => forgetWriterOutcomes());
const at = (s: number) => new Date(Date.UTC(2026, 11, 7, 9, 0, s));
const ok = (key: string | null, s: number, by: "writer" | "local-model" = "local-model") => recordWriterOutcome({ task: "posts", key, by, ok: true, reason: null, at: at(s) });
const failed = (key: string | null, s: number, reason = "the model on this machine's post was not in your note's words") =>
  recordWriterOutcome({ task: "insights", key, by: "local-model", ok: false, reason, at: at(s) });

test("nothing yet; then a note's tasks count once, by the latest; the run of like outcomes, newest first", () => {
  assert.deepEqual(recentWriting(), { state: "none", notes: 0, questions: 0, reason: null, at: null, by: null });
  ok("a", 1);
  ok("b", 2);
  ok("b", 3);
  ok("c", 4);
  assert.equal(whatItWrote(recentWriting()), "your last 3 notes");
  failed("d", 5);
  failed("c", 6); // c's latest outcome failed
  const recent = recentWriting("local-model");
  assert.equal(recent.state, "failed");
  assert.equal(recent.notes, 2);
  assert.equal(recent.reason, "the model on this machine's post was not in your note's words");
  assert.deepEqual(recent.at, at(6));
  assert.equal(whatItWrote(recent), "your last 2 notes");
});

test("questions are counted as questions; another writer's outcomes are not this one's", () => {
  ok("question:1", 1);
  assert.equal(whatItWrote(recentWriting()), "your last question");
  ok("n", 2);
  assert.equal(whatItWrote(recentWriting()), "your last 2 notes and questions");
  ok("m", 3, "writer");
  assert.equal(recentWriting("writer").notes, 1);
  assert.equal(recentWriting("local-model").notes, 1, "the note and the question, without the writer's");
  assert.equal(recentWriting("local-model").questions, 1);
});

test("a clean-up's outcome becomes its note's; only the last outcomes are kept", () => {
  failed("workflow-1", 1, "its clean-up did not keep what you said");
  ok("note-1", 2);
  rekeyWriterOutcomes("workflow-1", "note-1");
  assert.equal(whatItWrote(recentWriting()), "your last note");
  for (let i = 0; i < OUTCOMES_KEPT + 10; i++) ok(`n${i}`, 10 + i);
  assert.equal(recentWriting().notes, OUTCOMES_KEPT);
});
