import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { closeDb, db } from "@/lib/db/client.ts";
import { migrateDatabase } from "@/lib/db/migrate.ts";
import { resetEnvCache } from "@/lib/env.ts";
import { closeJobQueue } from "@/lib/jobs/queue.ts";
import { startCleanUp } from "@/lib/clean-up/start-clean-up.ts";
import { createEmptyDatabase, postgresAvailable, type EmptyDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/factories.ts";
import { startChatServer } from "../support/chat-server.ts";
import { startWorkerProcess, type WorkerProcess } from "../support/processes.ts";

// Separate `npm run worker` processes share the queue; one is killed (SIGKILL) in the middle of
// an optimization, and another recovers the run without redoing the finished chunks. Their logs
// are then scanned: the diagnostic ids never appear next to transcript text, keys or URLs.

const WORDS = Array.from({ length: 8 }, (_, i) => `chunk${i} alpha${i} bravo${i} charlie${i}`);

describe("job workers", () => {
  let database: EmptyDatabase;
  let chat: Awaited<ReturnType<typeof startChatServer>>;
  let user: TestUser;
  const workers: WorkerProcess[] = [];

  function startWorker(): WorkerProcess {
    const worker = startWorkerProcess({
      DATABASE_URL: database.url,
      OPENAI_BASE_URL: chat.baseUrl,
      OPENAI_API_KEY: "sk-test-secret-key-0123456789",
      JOBS_POLL_SECONDS: "0.5",
      OPTIMIZER_STALE_SECONDS: "3",
      LOG_LEVEL: "debug",
    });
    workers.push(worker);
    return worker;
  }

  before(async () => {
    database = await createEmptyDatabase((await postgresAvailable()) ? "postgres" : "pglite");
    await migrateDatabase(database.url);
    process.env.DATABASE_URL = database.url;
    process.env.OPTIMIZER = "openai";
    process.env.OPTIMIZER_CHUNK_WORDS = "4";
    resetEnvCache();
    chat = await startChatServer((req) => ({ content: `[${req.user}]`, delayMs: 700 }));
    user = await createTestUser();
  });

  after(async () => {
    for (const w of workers) w.kill();
    await Promise.all(workers.map((w) => w.exited));
    await closeJobQueue();
    await closeDb();
    await chat?.close();
    await database?.drop();
  });

  test("a worker killed mid-job: another recovers the run, finished chunks are kept, logs stay clean", async () => {
    const first = startWorker();
    const workflowId = (await startCleanUp({
      userId: user.id,
      requestHash: randomBytes(16).toString("hex"),
      transcript: { text: "", segments: WORDS.map((text, i) => ({ start: i * 3, end: i * 3 + 2.5, text })) },
      requestDictionary: [],
      durationSec: 600,
    }))!;
    const prisma = await db();
    const read = () => prisma.cleanUpWorkflow.findUniqueOrThrow({ where: { id: workflowId } });
    const until = async <T>(what: string, probe: () => Promise<T | undefined>) => {
      const deadline = Date.now() + 90_000;
      for (;;) {
        const value = await probe();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out: ${what}\n${workers.map((w) => w.output()).join("\n")}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    const midway = await until("two chunks done", async () => {
      const w = await read();
      return w.chunksDone >= 2 ? w : undefined;
    });
    first.kill();
    await first.exited;
    const before = await read();
    assert.equal(before.status, "running", "the dead worker's run is left running");
    assert.ok(before.chunksDone < before.chunksTotal, "killed before the end");

    startWorker();
    const done = await until("the recovered run to complete", async () => {
      const w = await read();
      return w.status === "completed" ? w : undefined;
    });
    assert.equal(done.callId, midway.callId, "the same dispatch");
    assert.notEqual(done.executionId, midway.executionId, "a new execution");
    assert.equal(done.executions, 2);
    assert.equal(done.optimizedText, WORDS.map((w) => `[${w}]`).join(" "));
    const asked = chat.requests.filter((r) => !r.responseFormat).map((r) => r.user); // the clean-up's, not the insights' (JSON)
    for (const text of WORDS) {
      const times = asked.filter((a) => a === text).length;
      assert.ok(times >= 1 && times <= 2, `${text}: asked ${times} times`);
    }
    assert.ok(asked.length <= WORDS.length + 1, `at most the chunk in flight is redone (${asked.length} requests)`);

    // The worker logs "completed" just after it commits: the test may read the row first.
    await until("the completion to be logged", async () => (workers.some((w) => w.output().includes('"optimization completed"')) ? true : undefined));

    // The log scan: every line that names one of the four ids is free of text, keys and URLs.
    const ids = [done.id, done.callId, midway.executionId!, done.executionId!];
    const secrets = [user.key, "sk-test-secret-key-0123456789", chat.baseUrl, "127.0.0.1:", ...WORDS.flatMap((w) => w.split(" "))];
    const lines = workers.flatMap((w) => w.output().split("\n")).filter(Boolean);
    const withIds = lines.filter((line) => ids.some((id) => line.includes(id)));
    assert.ok(withIds.length >= 3, `the ids are logged (start, completion), so the scan looks at something; the workers logged:\n${lines.join("\n")}`);
    for (const line of withIds) {
      for (const secret of secrets) assert.ok(!line.includes(secret), `a log line shows an id with ${secret}: ${line}`);
    }
  });
});
