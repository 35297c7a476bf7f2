import assert from "node:assert/strict";
import { test } from "node:test";
import type PgBoss from "pg-boss";
import { createQueueOnce } from "@/lib/jobs/queue.ts";

// Processes starting together create the same queues at once; PostgreSQL may answer one of them
// "deadlock detected" (seen in CI: a worker died at its start). That one tries again.

const job = { name: "test-job", payload: undefined } as never;
const deadlock = () => Object.assign(new Error("deadlock detected"), { code: "40P01" });

test("a deadlock while creating a queue is tried again; another error is not", async () => {
  let calls = 0;
  const flaky = { createQueue: async () => { if (++calls < 3) throw deadlock(); } } as unknown as PgBoss;
  await createQueueOnce(flaky, job);
  assert.equal(calls, 3);

  let other = 0;
  const broken = { createQueue: async () => { other++; throw Object.assign(new Error("no"), { code: "42501" }); } } as unknown as PgBoss;
  await assert.rejects(createQueueOnce(broken, job), /no/);
  assert.equal(other, 1);

  let always = 0;
  const stuck = { createQueue: async () => { always++; throw deadlock(); } } as unknown as PgBoss;
  await assert.rejects(createQueueOnce(stuck, job), /deadlock/);
  assert.equal(always, 5, "a bounded number of tries");
});
