import { test } from "node:test";
import assert from "node:assert/strict";
import { timeText, wordAt } from "@/app/_lib/notes/word-times.ts";

const w = (word: string, start: number, end: number) => ({ word, start, end });
const words = (tokens: ReturnType<typeof timeText>) => tokens.filter((t) => t.word).map((t) => [t.text, t.start, t.end]);

test("the clean text's words take the times of the recognized words they match (case and punctuation aside)", () => {
  const heard = [w("so", 0, 0.5), w("um", 0.5, 1), w("we", 1, 1.5), w("shipped", 1.5, 2), w("cooper netties", 2, 3)];
  const tokens = timeText("So, we shipped Kubernetes!", heard);
  assert.equal(tokens.map((t) => t.text).join(""), "So, we shipped Kubernetes!", "the text is kept exactly");
  const timed = words(tokens);
  assert.deepEqual(timed.slice(0, 3), [["So", 0, 0.5], ["we", 1, 1.5], ["shipped", 1.5, 2]]);
  // A word the clean-up changed takes the time after its matched neighbour, to the end.
  assert.deepEqual(timed[3], ["Kubernetes", 2, 3]);
});

test("words the clean-up added share the time between their neighbours; an edit far from the words stays in order", () => {
  const heard = [w("one", 0, 1), w("two", 1, 2), w("five", 4, 5)];
  const timed = words(timeText("one two three four five", heard));
  assert.deepEqual(timed, [["one", 0, 1], ["two", 1, 2], ["three", 2, 3], ["four", 3, 4], ["five", 4, 5]]);
  for (let i = 1; i < timed.length; i++) assert.ok((timed[i][1] as number) >= (timed[i - 1][1] as number));
});

test("no timed words: the text is cut into tokens without times", () => {
  const tokens = timeText("hello there", []);
  assert.deepEqual(tokens.map((t) => t.text), ["hello", " ", "there"]);
  assert.ok(Number.isNaN(tokens[0].start));
});

test("wordAt finds the word spoken at a time (the last one started), across gaps", () => {
  const tokens = timeText("a b, c d", [w("a", 0, 1), w("b", 1, 2), w("c", 2, 3), w("d", 3, 4)]);
  const at = (s: number) => tokens[wordAt(tokens, s)]?.text ?? null;
  assert.equal(at(0), "a");
  assert.equal(at(1.5), "b");
  assert.equal(at(2.99), "c");
  assert.equal(at(10), "d");
  assert.equal(wordAt(timeText("x", [w("x", 1, 2)]), 0.5), -1);
});
