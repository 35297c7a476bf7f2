// lib/turns-per-key.ts: a key's tasks one (or perKey) at a time, in order, the next resting as
// long as the last took when it waited behind it; keys are forgotten once idle.
import assert from "node:assert/strict";
import { test } from "node:test";
import { turnsPerKey } from "@/lib/turns-per-key.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("one at a time per key, in order; another key is not held up", async () => {
  const turns = turnsPerKey("test one at a time", 1);
  const log: string[] = [];
  let running = 0;
  const task = (key: string, i: number) =>
    turns(key, async () => {
      running++;
      assert.ok(running <= 2, "at most one per key (two keys)");
      log.push(`${key}${i} start`);
      await sleep(20);
      log.push(`${key}${i} end`);
      running--;
      return i;
    });
  const results = await Promise.all([task("a", 1), task("a", 2), task("b", 1), task("a", 3)]);
  assert.deepEqual(results, [1, 2, 1, 3]);
  assert.deepEqual(log.filter((l) => l.startsWith("a")), ["a1 start", "a1 end", "a2 start", "a2 end", "a3 start", "a3 end"]);
  assert.ok(log.indexOf("b1 start") < log.indexOf("a1 end"), "b starts beside a");
});

test("restFor: the next task of the key waits as long as the last took; a lone task never waits", async () => {
  const turns = turnsPerKey("test rest", 1, { restFor: (elapsed) => elapsed });
  const t0 = performance.now();
  await turns("k", () => sleep(50));
  const lone = performance.now();
  await turns("k", async () => undefined);
  assert.ok(performance.now() - lone < 40, "nobody was waiting: no rest");
  const starts: number[] = [];
  await Promise.all([0, 1].map(() => turns("k", async () => { starts.push(performance.now()); await sleep(60); })));
  assert.ok(starts[1] - starts[0] >= 110, `the second started ${Math.round(starts[1] - starts[0])} ms after the first (60 ms of work, 60 of rest)`);
  assert.ok(t0 > 0);
});

test("a failing task passes its turn on", async () => {
  const turns = turnsPerKey("test failure", 1);
  await assert.rejects(turns("k", async () => { throw new Error("boom"); }), /boom/);
  assert.equal(await turns("k", async () => "next"), "next");
});
