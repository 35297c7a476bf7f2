// lib/turns/heavy-turns.ts: a person's tasks of one path one (or perPerson) at a time, in order, the
// next resting as long as the last took when it waited behind it; across paths at most HEAVY_AT_ONCE
// run, and a free turn goes round the people waiting, not to the next request; a full queue is 429.
import assert from "node:assert/strict";
import { test } from "node:test";
import { HEAVY_AT_ONCE, heavyTurns, heavyTurnsSize } from "@/lib/turns/heavy-turns.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("one at a time per person, in order; another person is not held up", async () => {
  const turns = heavyTurns("test one at a time");
  const log: string[] = [];
  const task = (person: string, i: number) =>
    turns(person, async () => {
      log.push(`${person}${i} start`);
      await sleep(20);
      log.push(`${person}${i} end`);
      return i;
    });
  const results = await Promise.all([task("a", 1), task("a", 2), task("b", 1), task("a", 3)]);
  assert.deepEqual(results, [1, 2, 1, 3]);
  assert.deepEqual(log.filter((l) => l.startsWith("a")), ["a1 start", "a1 end", "a2 start", "a2 end", "a3 start", "a3 end"]);
  assert.ok(log.indexOf("b1 start") < log.indexOf("a1 end"), "b starts beside a");
  assert.deepEqual(heavyTurnsSize(), { running: 0, waiting: 0 }, "nothing is left behind");
});

test("round robin: one person's many tasks do not make another's single task wait behind them all", async () => {
  // Every turn taken by person "many" (perPerson as many as there are turns), then "one" asks once.
  const turns = heavyTurns("test round robin", { perPerson: 100, maxWaiting: 100 });
  const order: string[] = [];
  const work = (person: string, i: number) =>
    turns(person, async () => {
      order.push(`${person}${i}`);
      await sleep(15);
    });
  const many = Array.from({ length: HEAVY_AT_ONCE * 4 }, (_, i) => work("many", i));
  await sleep(1);
  const one = work("one", 0);
  await Promise.all([...many, one]);
  // "one" starts as soon as the first turn frees: after at most HEAVY_AT_ONCE + 1 of "many"'s.
  assert.ok(order.indexOf("one0") <= HEAVY_AT_ONCE + 1, `"one" started ${order.indexOf("one0")}th: ${order.join(" ")}`);
});

test("paths share the turns: another path's tasks wait for a free one", async () => {
  const a = heavyTurns("test shared a", { perPerson: 100, maxWaiting: 100 });
  const b = heavyTurns("test shared b", { perPerson: 100, maxWaiting: 100 });
  let running = 0;
  let most = 0;
  const work = async () => {
    running++;
    most = Math.max(most, running);
    await sleep(10);
    running--;
  };
  await Promise.all(Array.from({ length: HEAVY_AT_ONCE * 3 }, (_, i) => (i % 2 ? a : b)(`p${i % 3}`, work)));
  assert.equal(most, HEAVY_AT_ONCE);
});

test("restFor: the next task of the person waits as long as the last took; a lone task never waits", async () => {
  const turns = heavyTurns("test rest", { restFor: (elapsed) => elapsed });
  await turns("k", () => sleep(50));
  const lone = performance.now();
  await turns("k", async () => undefined);
  assert.ok(performance.now() - lone < 40, "nobody was waiting: no rest");
  const starts: number[] = [];
  await Promise.all([0, 1].map(() => turns("k", async () => { starts.push(performance.now()); await sleep(60); })));
  assert.ok(starts[1] - starts[0] >= 110, `the second started ${Math.round(starts[1] - starts[0])} ms after the first (60 ms of work, 60 of rest)`);
});

test("a full queue is refused with 429 rate_limited at once; a failing task passes its turn on", async () => {
  const turns = heavyTurns("test full", { maxWaiting: 1 });
  const first = turns("k", () => sleep(30));
  const second = turns("k", () => sleep(1));
  await assert.rejects(turns("k", () => sleep(1)), (err: { code?: string; status?: number }) => err.code === "rate_limited" && err.status === 429);
  await Promise.all([first, second]);
  await assert.rejects(turns("k", async () => { throw new Error("boom"); }), /boom/);
  assert.equal(await turns("k", async () => "next"), "next");
});

test("a waiting task whose caller gives up leaves the queue and never starts", async () => {
  const turns = heavyTurns("test abort");
  const first = turns("k", () => sleep(30));
  const gaveUp = new AbortController();
  let started = false;
  const second = turns("k", async () => void (started = true), gaveUp.signal);
  gaveUp.abort(new Error("gone"));
  await assert.rejects(second, /gone/);
  await first;
  await sleep(5);
  assert.equal(started, false);
  assert.deepEqual(heavyTurnsSize(), { running: 0, waiting: 0 });
});
