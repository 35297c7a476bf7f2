import assert from "node:assert/strict";
import { test } from "node:test";
import { applyFix, applyFixToParts, fixMessage, placesOf, type WordFix } from "@/app/_lib/notes/fix-word.ts";
import { pickWordAt } from "@/app/_lib/notes/note-text.ts";

const TEXT = "My plan: my team ships, and mystery solved by my lead.";
const fix = (scope: WordFix["scope"], at: number | null = null): WordFix => ({ misspelling: "my", correct: "our", scope, at });

test("placesOf finds whole words in any case, not inside other words", () => {
  assert.deepEqual(placesOf(TEXT, "my"), [0, 9, 46]);
  assert.deepEqual(placesOf(TEXT, "  "), []);
});

test("only this one changes the tapped place; all in this note changes every place", () => {
  assert.deepEqual(applyFix(TEXT, fix("one", 9)), { text: "My plan: our team ships, and mystery solved by my lead.", count: 1 });
  assert.deepEqual(applyFix(TEXT, fix("note")), { text: "our plan: our team ships, and mystery solved by our lead.", count: 3 });
  assert.deepEqual(applyFix(TEXT, fix("one", 3)), { text: TEXT, count: 0 }, "not a place of the word: nothing");
  assert.deepEqual(applyFix(TEXT, fix("one")), { text: TEXT, count: 0 });
});

test("over a recording's parts, the tapped place is found in its part", () => {
  const parts = ["my plan", "", "and my team"];
  // Joined: "my plan\n\nand my team": the second "my" starts at 13.
  assert.deepEqual(applyFixToParts(parts, fix("one", 13)), { texts: ["my plan", "", "and our team"], count: 1 });
  assert.deepEqual(applyFixToParts(parts, fix("everywhere")), { texts: ["our plan", "", "and our team"], count: 2 });
});

test("pickWordAt gives the word and where it starts, at a caret or a selection", () => {
  assert.deepEqual(pickWordAt(TEXT, 11, 11), { word: "my", at: 9 });
  assert.deepEqual(pickWordAt(TEXT, 8, 12), { word: "my", at: 9 });
  assert.deepEqual(pickWordAt("say 'hello' now", 7, 7), { word: "hello", at: 5 });
});

test("the toast says what changed", () => {
  assert.equal(fixMessage(fix("one", 9), 1), "Fixed 1 place in this note.");
  assert.equal(fixMessage(fix("note"), 3), "Fixed 3 places in this note.");
  assert.equal(fixMessage(fix("note"), 0), "“my” is not in this note.");
  assert.equal(fixMessage(fix("everywhere"), 2), "“my” will be written “our” from now on; fixed 2 places here.");
});
