import assert from "node:assert/strict";
import { test } from "node:test";
import { listFacts, newFacts } from "@/lib/writer/new-facts.ts";
import { loadCorpus } from "@/tests/support/writer-corpus.ts";

const NOTE = "Spent the afternoon with the team at Acme going through their migration plan. It took three months and 40 engineers.";

test("names and numbers the note does not have are found", () => {
  assert.deepEqual(newFacts(NOTE, "Big news: we spent the afternoon with Globex, and Bob Smith says 12 teams moved."), ["12", "Globex", "Bob", "Smith"]);
});

test("the note's own names and numbers, in any case, as digits or words, and sentence openings are not", () => {
  assert.deepEqual(newFacts(NOTE, "Migration plans take time. At acme it took 3 months and forty engineers, and I'm glad. What would you do?"), []);
});

test("German capitalizes nouns: only numbers are checked", () => {
  assert.deepEqual(newFacts("Wir haben den Editor ausgeliefert.", "Heute liefern wir den neuen Editor für alle Kunden aus, 5 Jahre später.", "de"), ["5"]);
});

test("a post made from each corpus note's own sentences brings nothing new", () => {
  for (const note of loadCorpus()) {
    const reordered = note.text.split(/(?<=[.!?])\s+/).reverse().join(" ");
    assert.deepEqual(newFacts(note.text, reordered, note.language), [], note.id);
  }
});

test("listFacts says them in plain words", () => {
  assert.equal(listFacts(["Acme"]), "“Acme”");
  assert.equal(listFacts(["Acme", "Bob", "42"]), "“Acme”, “Bob” and “42”");
});
