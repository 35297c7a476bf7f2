// lib/writer/local/turns.ts: one generation at a time with the model; between people turns go round
// (a person's one task waits behind at most one of another's), and within a person the note the
// model holds goes first (its tokens are already read).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Turns } from "@/lib/writer/local/turns.ts";
import { asPerson } from "@/lib/turns/person-context.ts";

/** Queues tasks, each ending its turn at once, and returns the order they ran in. */
async function order(tasks: { person: string; note: string; name: string }[], turns = new Turns()): Promise<string[]> {
  const ran: string[] = [];
  const first = await turns.take("warm-up", undefined, "nobody"); // holds the model while all queue
  const all = tasks.map(({ person, note, name }) =>
    asPerson(person, () => turns.take(note)).then((end) => {
      ran.push(name);
      end();
    }),
  );
  first();
  await Promise.all(all);
  return ran;
}

test("sixteen tasks of one person and one of another's: the other's waits behind at most one", async () => {
  const many = Array.from({ length: 16 }, (_, i) => ({ person: "a", note: `a-note-${i}`, name: `a${i}` }));
  const ran = await order([...many, { person: "b", note: "b-note", name: "b0" }]);
  assert.ok(ran.indexOf("b0") <= 1, ran.join(" "));
});

test("within a person, the note the model holds goes first", async () => {
  const ran = await order([
    { person: "a", note: "one", name: "one-insights" },
    { person: "a", note: "two", name: "two-insights" },
    { person: "a", note: "one", name: "one-x" },
    { person: "a", note: "one", name: "one-linkedin" },
  ]);
  assert.deepEqual(ran, ["one-insights", "one-x", "one-linkedin", "two-insights"]);
});

test("two people's notes alternate; each keeps its own order", async () => {
  const ran = await order([
    { person: "a", note: "a1", name: "a1" },
    { person: "a", note: "a1", name: "a2" },
    { person: "b", note: "b1", name: "b1" },
    { person: "b", note: "b1", name: "b2" },
  ]);
  assert.deepEqual(ran, ["a1", "b1", "a2", "b2"]);
});
