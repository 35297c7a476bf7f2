import assert from "node:assert/strict";
import { before, test } from "node:test";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { db } from "@/lib/db/client.ts";
import { recognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { EngineBusyError, type RecognitionEngine } from "@/lib/transcription/recognizers/types.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";
import { jfkOpening } from "../support/audio.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
const database = setUpTestDatabase();

// The first 3 s of jfk.wav: these tests count recognitions and replays, not words.
let speech: Buffer;
let engine: RecognitionEngine;
let recognize: RecognitionEngine["recognize"];
before(async () => {
  await database.ready;
  speech = await jfkOpening();
  engine = await recognitionEngine();
  recognize = engine.recognize.bind(engine);
});

/** Counts the recognizer's runs; `before` may hold or fail a run. */
function observeEngine(before?: (n: number) => Promise<void>): { runs: () => number; restore: () => void } {
  let runs = 0;
  engine.recognize = async (input) => {
    runs += 1;
    await before?.(runs);
    return recognize(input);
  };
  return { runs: () => runs, restore: () => (engine.recognize = recognize) };
}

function upload(key: string, idempotencyKey: string, prompt = "inaugural") {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(speech)]), "opening.wav");
  body.set("prompt", prompt);
  return call(transcribe, { method: "POST", path: "/transcribe", key, body, headers: { "idempotency-key": idempotencyKey } });
}

test("20 concurrent uploads with one Idempotency-Key: one recognition, 19 replays of the same answer, no 503", async () => {
  const user = await createTestUser();
  const engineRuns = observeEngine();
  try {
    const results = await Promise.all(Array.from({ length: 20 }, () => upload(user.key, "race-20")));
    assert.deepEqual(results.map((r) => r.status), Array(20).fill(200), results.map((r) => r.text).join("\n"));
    assert.equal(engineRuns.runs(), 1);
    const replays = results.filter((r) => r.headers.get("idempotent-replayed") === "true");
    assert.equal(replays.length, 19);
    const first = results.find((r) => !replays.includes(r))!;
    for (const replay of replays) assert.deepEqual(replay.body, first.body);
    const prisma = await db();
    assert.equal(await prisma.note.count({ where: { userId: user.id } }), 1);
    assert.equal(await prisma.noteClaim.count({ where: { userId: user.id } }), 0, "the claim is released");
  } finally {
    engineRuns.restore();
  }
});

test("while the first runs, the same key with another body is 409 at once", async () => {
  const user = await createTestUser();
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  let finish!: () => void;
  const held = new Promise<void>((resolve) => (finish = resolve));
  const engineRuns = observeEngine(async () => {
    started();
    await held;
  });
  try {
    const first = upload(user.key, "held-key");
    await running;
    const other = await upload(user.key, "held-key", "another prompt");
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, "idempotency_conflict");
    finish();
    assert.equal((await first).status, 200);
    assert.equal(engineRuns.runs(), 1);
  } finally {
    engineRuns.restore();
  }
});

test("when the first fails, its claim is released and a waiting retry transcribes", async () => {
  const user = await createTestUser();
  const engineRuns = observeEngine(async (n) => {
    if (n === 1) throw new EngineBusyError("busy for this test", 1);
  });
  try {
    const results = await Promise.all(Array.from({ length: 3 }, () => upload(user.key, "first-fails")));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 503], results.map((r) => r.text).join("\n"));
    assert.equal(engineRuns.runs(), 2);
    const ok = results.filter((r) => r.status === 200);
    assert.equal(ok[0].body.id, ok[1].body.id);
  } finally {
    engineRuns.restore();
  }
});

test("a claim left by a process that died is taken over", async () => {
  const user = await createTestUser();
  const prisma = await db();
  await prisma.noteClaim.create({
    data: { userId: user.id, idempotencyKey: "orphaned", requestHash: "x", token: "dead", heartbeatAt: new Date(Date.now() - 60_000) },
  });
  const res = await upload(user.key, "orphaned");
  assert.equal(res.status, 200, res.text);
  assert.equal(await prisma.noteClaim.count({ where: { userId: user.id } }), 0);
});
