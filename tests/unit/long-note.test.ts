import { test } from "node:test";
import assert from "node:assert/strict";
import { LONG_NOTE_HEAD, noteThatFits } from "@/lib/writer/prompts/long-note.ts";

// A note longer than the model on this machine can read: its strongest sentences, in order, as many as fit.

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

test("a note that fits is read whole", () => {
  const note = "We moved the database. It took four hours.";
  assert.equal(noteThatFits(note, () => true), note);
});

test("a long note keeps its strongest sentences, in the note's order, as many as fit", () => {
  const filler = Array.from({ length: 400 }, (_, i) => `Lunch ${i} was fine.`);
  const point = "The database migration to Postgres needs a migration report for the Postgres database team.";
  const echo = "The Postgres database team reads the migration report before the database migration.";
  const sentences = [...filler.slice(0, 200), point, ...filler.slice(200), echo];
  const cut = noteThatFits(sentences.join(" "), (text) => words(text) <= 120);
  assert.ok(cut.startsWith(`${LONG_NOTE_HEAD}\n\n`), cut);
  assert.ok(words(cut) <= 120, `${words(cut)} words`);
  assert.ok(cut.includes(point) && cut.includes(echo), "the sentences that say what the note is about are kept");
  assert.ok(cut.indexOf(point) < cut.indexOf(echo), "in the note's order");
});

test("unpunctuated speech is cut into pieces of words, not kept or dropped whole", () => {
  const speech = Array.from({ length: 3000 }, (_, i) => `word${i % 50}`).join(" ");
  const cut = noteThatFits(speech, (text) => words(text) <= 500);
  const kept = words(cut) - words(LONG_NOTE_HEAD);
  assert.ok(kept > 300 && kept <= 500, `${kept} words kept`);
});
