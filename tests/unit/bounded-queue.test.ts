import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BoundedQueue } from "@/lib/transcription/recognizers/bounded-queue.ts";
import { EngineBusyError } from "@/lib/transcription/recognizers/types.ts";

/** A task that runs until released. */
function gate() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  let started = false;
  return { task: async () => ((started = true), await done, "done"), release, started: () => started };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("BoundedQueue", () => {
  test("runs at most `concurrency` at once, in arrival order, and refuses beyond `maxWaiting`", async () => {
    let estimate = 7;
    const queue = new BoundedQueue(1, 1, () => estimate);
    const [a, b] = [gate(), gate()];
    const first = queue.run(a.task);
    const second = queue.run(b.task);
    await tick();
    assert.deepEqual([a.started(), b.started()], [true, false]);
    assert.deepEqual(queue.size, { running: 1, waiting: 1 });
    await assert.rejects(queue.run(async () => "x"), (err) => err instanceof EngineBusyError && err.retryAfterSeconds === 7);
    estimate = 3;
    await assert.rejects(queue.run(async () => "x"), (err) => err instanceof EngineBusyError && err.retryAfterSeconds === 3);
    a.release();
    assert.equal(await first, "done");
    await tick();
    assert.equal(b.started(), true);
    b.release();
    assert.equal(await second, "done");
    assert.deepEqual(queue.size, { running: 0, waiting: 0 });
  });

  test("an aborted waiting task never starts; an aborted running one answers at once but keeps its slot", async () => {
    const queue = new BoundedQueue(1, 2);
    const [running, waiting] = [gate(), gate()];
    const abortRunning = new AbortController();
    const abortWaiting = new AbortController();
    const first = queue.run(running.task, abortRunning.signal);
    const second = queue.run(waiting.task, abortWaiting.signal);
    abortWaiting.abort(new Error("gone"));
    await assert.rejects(second, /gone/);
    assert.deepEqual(queue.size, { running: 1, waiting: 0 });
    abortRunning.abort(new Error("left"));
    await assert.rejects(first, /left/);
    assert.deepEqual(queue.size, { running: 1, waiting: 0 }, "the slot is held until the task ends");
    running.release();
    await tick();
    await tick();
    assert.deepEqual(queue.size, { running: 0, waiting: 0 });
    assert.equal(waiting.started(), false);
  });

  test("cancelWaiting refuses the waiting tasks; a task that throws frees its slot", async () => {
    const queue = new BoundedQueue(1, 2);
    const failing = queue.run(async () => {
      await tick();
      throw new Error("boom");
    });
    const waiting = queue.run(async () => "never");
    queue.cancelWaiting(new Error("closed"));
    await assert.rejects(waiting, /closed/);
    await assert.rejects(failing, /boom/);
    assert.equal(await queue.run(async () => "next"), "next");
  });

  test("with backgroundYields, background tasks hold no slot against more urgent ones; without, they do", async () => {
    for (const backgroundYields of [true, false]) {
      const queue = new BoundedQueue(1, 2, 5, { backgroundYields });
      const [background, live, laterBackground] = [gate(), gate(), gate()];
      const runs = [queue.run(background.task, undefined, "background"), queue.run(live.task, undefined, "live"), queue.run(laterBackground.task, undefined, "background")];
      await tick();
      assert.deepEqual([background.started(), live.started(), laterBackground.started()], [true, backgroundYields, false], `backgroundYields: ${backgroundYields}`);
      // Another background task waits for a free slot either way; when the first ends, the next waiting one starts.
      background.release();
      await tick();
      await tick();
      assert.equal(live.started(), true);
      assert.equal(laterBackground.started(), false, "the live task holds the one slot");
      live.release();
      await tick();
      await tick();
      assert.equal(laterBackground.started(), true);
      laterBackground.release();
      assert.deepEqual(await Promise.all(runs), ["done", "done", "done"]);
      assert.deepEqual(queue.size, { running: 0, waiting: 0 });
    }
  });

  test("waiting tasks start by urgency: live first, background last, in arrival order within one", async () => {
    const queue = new BoundedQueue(1, 10);
    const order: string[] = [];
    const running = gate();
    const first = queue.run(running.task);
    const done = (["background-1", "normal-1", "live-1", "background-2", "live-2", "normal-2"] as const).map((name) => {
      const urgency = name.split("-")[0] as "live" | "normal" | "background";
      return queue.run(async () => void order.push(name), undefined, urgency);
    });
    await tick();
    running.release();
    await first;
    await Promise.all(done);
    assert.deepEqual(order, ["live-1", "live-2", "normal-1", "normal-2", "background-1", "background-2"]);
  });
});
