// lib/turns/heavy-turns.ts: a person's tasks of one path one (or perPerson) at a time, in order, the
// next resting as long as the last took when it waited behind it; paths of one group run at most its
// atOnce together, a free place going round the people waiting, not to the next request; a full
// queue is 429.
import assert from "node:assert/strict";
import { test } from "node:test";
import { heavyTurns, heavyTurnsSize } from "@/lib/turns/heavy-turns.ts";

const AT_ONCE = 2;

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
  const turns = heavyTurns("test round robin", { perPerson: 100, maxWaiting: 100, group: { name: "round robin", atOnce: AT_ONCE } });
  const order: string[] = [];
  const work = (person: string, i: number) =>
    turns(person, async () => {
      order.push(`${person}${i}`);
      await sleep(15);
    });
  const many = Array.from({ length: AT_ONCE * 4 }, (_, i) => work("many", i));
  await sleep(1);
  const one = work("one", 0);
  await Promise.all([...many, one]);
  // "one" starts as soon as the first turn frees: after at most AT_ONCE + 1 of "many"'s.
  assert.ok(order.indexOf("one0") <= AT_ONCE + 1, `"one" started ${order.indexOf("one0")}th: ${order.join(" ")}`);
});

test("the paths of a group share its places: another path's tasks wait for a free one", async () => {
  const group = { name: "shared", atOnce: AT_ONCE };
  const a = heavyTurns("test shared a", { perPerson: 100, maxWaiting: 100, group });
  const b = heavyTurns("test shared b", { perPerson: 100, maxWaiting: 100, group });
  let running = 0;
  let most = 0;
  const work = async () => {
    running++;
    most = Math.max(most, running);
    await sleep(10);
    running--;
  };
  await Promise.all(Array.from({ length: AT_ONCE * 3 }, (_, i) => (i % 2 ? a : b)(`p${i % 3}`, work)));
  assert.equal(most, AT_ONCE);
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

test("a path outside a group keeps its per-person turns but waits for none of the group's places", async () => {
  const writing = heavyTurns("test waits on a writer", { perPerson: 1, maxWaiting: 10 });
  const computing = heavyTurns("test computes", { perPerson: 100, maxWaiting: 100, group: { name: "busy", atOnce: AT_ONCE } });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // Every shared turn is held by computing work: a rewrite still starts at once.
  const busy = Array.from({ length: AT_ONCE }, () => computing("busy", () => held));
  let rewriteStarted = false;
  await writing("writer", async () => void (rewriteStarted = true));
  assert.equal(rewriteStarted, true);
  release();
  await Promise.all(busy);
  assert.deepEqual(heavyTurnsSize(), { running: 0, waiting: 0 });
});
