// Job payloads are checked by their schema when queued and again when a worker runs them.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { z } from "zod";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { defineJob } from "@/lib/jobs/define-job.ts";
import { enqueueJob, jobQueue, jobState } from "@/lib/jobs/queue.ts";
import { startJobWorkers, type JobWorkers } from "@/lib/jobs/workers.ts";
import { JOBS } from "@/lib/background-work.ts";

process.env.JOBS_POLL_SECONDS ??= "0.5";
const database = setUpTestDatabase();

const ran: unknown[] = [];
const echoJob = defineJob({
  name: "test-echo",
  payload: z.strictObject({ itemId: z.string().min(1) }),
  retryLimit: 0,
  async run(data) {
    ran.push(data);
  },
});

async function settled(id: string): Promise<string> {
  for (;;) {
    const state = (await jobState(echoJob.name, id))?.state;
    if (state === "completed" || state === "failed") return state;
    await new Promise((r) => setTimeout(r, 100));
  }
}

let workers: JobWorkers;
before(async () => {
  await database.ready;
  workers = await startJobWorkers([echoJob], []);
});
after(async () => {
  await workers?.stop();
});

describe("job payloads", () => {
  test("every registered job has a payload schema", () => {
    for (const job of JOBS) assert.ok(job.payload instanceof z.ZodType, job.name);
    assert.ok(JOBS.some((job) => job.name === "content-generate-variant"));
    assert.ok(JOBS.some((job) => job.name === "optimize-transcript"));
  });

  test("a payload that does not fit the schema is refused when queued", async () => {
    await assert.rejects(enqueueJob(echoJob, { itemId: 7 } as never), /test-echo job's payload is invalid: itemId/);
    await assert.rejects(enqueueJob(echoJob, { itemId: "a", text: "no text in jobs" } as never), /payload is invalid/);
    const [generate] = JOBS.filter((job) => job.name === "content-generate-variant");
    await assert.rejects(enqueueJob(generate, { workflowId: "w" }), /payload is invalid: taskId/);
  });

  test("a job whose stored payload does not fit fails without running; a fitting one runs", async () => {
    const boss = await jobQueue(echoJob);
    const bad = await boss.send(echoJob.name, { itemId: 7 });
    assert.ok(bad);
    assert.equal(await settled(bad), "failed");
    assert.deepEqual(ran, []);
    const good = await enqueueJob(echoJob, { itemId: "item-1" });
    assert.equal(await settled(good), "completed");
    assert.deepEqual(ran, [{ itemId: "item-1" }]);
  });
});

describe("sweeps", () => {
  test("a sweep's first run waits for sweepsFrom, the next ones start sweepsApartMs apart; stopped before, none runs", async () => {
    const runs: [string, number][] = [];
    const sweep = (name: string) => ({ name, intervalSeconds: () => 3600, run: async () => void runs.push([name, performance.now()]) });
    let open!: () => void;
    const sweepsFrom = new Promise<void>((resolve) => (open = resolve));
    const these = await startJobWorkers([], [sweep("a"), sweep("b")], { sweepsFrom, sweepsApartMs: 300 });
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(runs.length, 0, "nothing before sweepsFrom");
    const opened = performance.now();
    open();
    while (runs.length < 2) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(runs.map(([name]) => name), ["a", "b"]);
    assert.ok(runs[1][1] - opened >= 290, `b ran ${runs[1][1] - opened} ms after sweepsFrom`);
    await these.stop();

    const never = await startJobWorkers([], [sweep("c")], { sweepsFrom: new Promise((r) => setTimeout(r, 100)) });
    await never.stop();
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(runs.length, 2, "a sweep stopped before its first run does not run");
  });
});
