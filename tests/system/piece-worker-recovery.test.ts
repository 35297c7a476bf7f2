import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { closeDb, db } from "@/lib/db/client.ts";
import { migrateDatabase } from "@/lib/db/migrate.ts";
import { resetEnvCache } from "@/lib/env.ts";
import { closeJobQueue } from "@/lib/jobs/queue.ts";
import { createEmptyDatabase, postgresAvailable, type EmptyDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/factories.ts";
import { spokenSentences } from "../support/audio.ts";
import { call } from "../support/http.ts";
import { startWorkerProcess, type WorkerProcess } from "../support/processes.ts";

// A long recording's pieces are worked by separate `npm run worker` processes. The only worker is
// killed (SIGKILL) while it recognizes a piece; a second one starts, the recovery sweep gives it
// the dead worker's piece, and the upload — still waiting — answers with the whole text.

const SENTENCES = [
  "The weather is very nice today and the sun is shining",
  "Please call me tomorrow morning at the office",
  "Thank you very much for your help my friend",
];

let database: EmptyDatabase;
let user: TestUser;
let dir: string;
let recording: Buffer;
const workers: WorkerProcess[] = [];

function startWorker(): WorkerProcess {
  const worker = startWorkerProcess({
    DATABASE_URL: database.url,
    TRANSCRIBE_ENGINE: "pocketsphinx",
    JOBS_POLL_SECONDS: "0.5",
    RECOGNIZERS_PER_PROCESS: "1",
    RECOGNITION_PIECE_STALE_SECONDS: "8",
    LOG_LEVEL: "warn",
  });
  workers.push(worker);
  return worker;
}

before(async () => {
  database = await createEmptyDatabase((await postgresAvailable()) ? "postgres" : "pglite");
  await migrateDatabase(database.url);
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    TRANSCRIBE_ENGINE: "pocketsphinx",
    OPTIMIZER: "off",
    RECOGNITION_PIECE_SECONDS: "6",
    RECOGNITION_PIECE_STALE_SECONDS: "8",
  });
  resetEnvCache();
  user = await createTestUser();
  dir = await mkdtemp(path.join(tmpdir(), "vd-piece-recovery-"));
  await spokenSentences(path.join(dir, "recording.wav"), SENTENCES, () => [0.5, 2.5]);
  recording = await readFile(path.join(dir, "recording.wav"));
});

after(async () => {
  for (const w of workers) w.kill();
  await Promise.all(workers.map((w) => w.exited));
  await closeJobQueue();
  await closeDb();
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("the worker recognizing a piece is killed: another worker takes the piece over and the upload answers in full", async () => {
  const { POST: transcribe } = await import("@/app/transcribe/route.ts");
  const first = startWorker();
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(recording)]), "long.wav");
  body.set("response_format", "verbose_json");
  const answer = call(transcribe, { method: "POST", path: "/transcribe", key: user.key, body });

  // Wait until the worker holds a piece, then kill it (and its recognizer) mid-piece. It is paused
  // first and the piece read again, so the piece it holds is the one it held when it died (read
  // while it ran, the piece may have been finished between the read and the kill).
  const prisma = await db();
  const running = () => prisma.recognitionPiece.findFirst({ where: { status: "running" }, select: { index: true } });
  let held: { index: number } | null = null;
  for (let i = 0; i < 1200 && !held; i++) {
    if (await running()) {
      first.pause();
      held = await running();
      if (!held) first.resume();
    }
    if (!held) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(held, `a worker started a piece\n${first.output()}`);
  first.kill();
  await first.exited;
  const stranded = await prisma.recognitionPiece.findFirstOrThrow({ where: { index: held.index } });
  assert.equal(stranded.status, "running", "the dead worker's piece is left running, until its lease goes stale");

  const second = startWorker();
  const res = await answer;
  assert.equal(res.status, 200, `${res.text}\n${second.output()}`);
  assert.equal(res.body.segments.length, 3);
  const pieces = await prisma.recognitionPiece.findMany({ orderBy: { index: "asc" } });
  assert.equal(pieces.length, 3);
  assert.ok(pieces.every((p) => p.status === "completed" && p.audio === null));
  const attempts = pieces.map((p) => p.attempts);
  assert.equal(attempts[held.index], 2, `the killed piece ran again, once (attempts ${attempts})`);
  assert.ok(attempts.every((n, i) => i === held.index || n === 1), `no other piece was taken from a live worker (attempts ${attempts})`);
});
