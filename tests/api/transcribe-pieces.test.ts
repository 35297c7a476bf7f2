// A long recording is recognized in pieces on the job queue (recognize-piece jobs, worked here by
// this process's own job workers), stitched in order with the recording's times; a failing piece
// is retried; the same upload twice recognizes every piece once. Real speech (espeak-ng), real
// PocketSphinx, real pg-boss on the database under test.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { db } from "@/lib/db/client.ts";
import { startJobWorkers, type JobWorkers } from "@/lib/jobs/workers.ts";
import { recognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { EngineBusyError, type RecognitionEngine, type RecognizeInput } from "@/lib/transcription/recognizers/types.ts";
import { recognizePieceJob } from "@/lib/transcription/recognition/recognize-pieces-job.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestUser } from "../support/factories.ts";
import { spokenSentences } from "../support/audio.ts";
import { call } from "../support/http.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
process.env.JOBS_POLL_SECONDS = "0.5";
process.env.RECOGNIZERS_PER_PROCESS = "2";
process.env.RECOGNITION_PIECE_SECONDS = "6";
process.env.OPTIMIZER = "off";
const database = setUpTestDatabase();

const SENTENCES = [
  "The weather is very nice today and the sun is shining",
  "Please call me tomorrow morning at the office",
  "Thank you very much for your help my friend",
];

let dir: string;
let recording: Buffer;
let wholeFile: { start: number; end: number }[];
let engine: RecognitionEngine;
let recognize: RecognitionEngine["recognize"];
let workers: JobWorkers;

before(async () => {
  await database.ready;
  // Three spoken sentences with 2.5 s pauses between them (about 15 s): three pieces.
  dir = await mkdtemp(path.join(tmpdir(), "vd-pieces-test-"));
  const wav = path.join(dir, "recording.wav");
  await spokenSentences(wav, SENTENCES, (i) => [i === 0 ? 0.5 : 0, i === 2 ? 0.5 : 2.5]);
  recording = await readFile(wav);
  engine = await recognitionEngine();
  recognize = engine.recognize.bind(engine);
  // The recognizer on the whole recording: where its utterances are, to check the stitched times.
  wholeFile = (await recognize({ wavPath: wav, durationSec: 15 })).segments;
  assert.equal(wholeFile.length, 3, "PocketSphinx hears three utterances in the whole recording");
  workers = await startJobWorkers([recognizePieceJob], []);
});

after(async () => {
  await workers?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Counts the recognizer's runs (pieces and whole recordings); `fail` may fail a run. */
function observeEngine(fail?: (run: number, input: RecognizeInput) => boolean, failure: () => Error = () => new Error("the recognizer crashed (test)")) {
  let runs = 0;
  engine.recognize = async (input) => {
    runs += 1;
    if (fail?.(runs, input)) throw failure();
    return recognize(input);
  };
  return { runs: () => runs, restore: () => (engine.recognize = recognize) };
}

function upload(key: string, headers: Record<string, string> = {}, prompt?: string) {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(recording)]), "long.wav");
  body.set("response_format", "verbose_json");
  if (prompt) body.set("prompt", prompt);
  return call(transcribe, { method: "POST", path: "/transcribe", key, body, headers });
}

async function workflowOf(userId: string) {
  const prisma = await db();
  return prisma.recognitionWorkflow.findFirstOrThrow({ where: { userId }, include: { pieces: { orderBy: { index: "asc" } } } });
}

test("a recording of three pieces: queued as jobs, stitched in order with the recording's times, audio removed", async () => {
  const user = await createTestUser();
  const engineRuns = observeEngine();
  try {
    const res = await upload(user.key);
    assert.equal(res.status, 200, res.text);
    const workflow = await workflowOf(user.id);
    assert.equal(workflow.status, "completed");
    assert.equal(workflow.pieces.length, 3);
    assert.equal(engineRuns.runs(), 3, "each piece recognized once, nothing recognized whole");
    for (const piece of workflow.pieces) {
      assert.equal(piece.status, "completed");
      assert.equal(piece.audio, null, "a recognized piece's audio is deleted");
      assert.equal(piece.attempts, 1);
    }
    // The pieces follow each other and cover the speech.
    for (let i = 1; i < 3; i++) assert.ok(workflow.pieces[i].startSec >= workflow.pieces[i - 1].endSec - 1e-6);

    // Text: the pieces' texts, in order.
    const pieceTexts = workflow.pieces.map((p) => (p.result as { text: string }).text);
    assert.ok(pieceTexts.every((t) => t.length > 0), JSON.stringify(pieceTexts));
    assert.equal(res.body.text, pieceTexts.join(" "));

    // Segments: increasing, inside the recording, and where the recognizer finds them in the whole file.
    const segments: { start: number; end: number; text: string }[] = res.body.segments;
    assert.equal(segments.length, 3);
    for (let i = 0; i < segments.length; i++) {
      assert.ok(segments[i].end > segments[i].start);
      if (i) assert.ok(segments[i].start >= segments[i - 1].end, "segments increase");
      assert.ok(Math.abs(segments[i].start - wholeFile[i].start) < 0.6, `segment ${i} at ${segments[i].start}, whole file ${wholeFile[i].start}`);
      assert.ok(Math.abs(segments[i].end - wholeFile[i].end) < 0.6, `segment ${i} ends ${segments[i].end}, whole file ${wholeFile[i].end}`);
    }

    // The pieces went through pg-boss: one recognize-piece job each.
    const prisma = await db();
    const jobs = await prisma.$queryRawUnsafe<{ index: number; state: string }[]>(
      `SELECT (data->>'index')::int AS index, state::text AS state FROM pgboss.job WHERE name = $1 AND data->>'workflowId' = $2 ORDER BY 1`,
      recognizePieceJob.name,
      workflow.id,
    );
    assert.deepEqual(jobs.map((j) => j.index), [0, 1, 2]);
    assert.ok(jobs.every((j) => j.state === "completed"), JSON.stringify(jobs));
  } finally {
    engineRuns.restore();
  }
});

test("the same upload twice (same bytes, and with one Idempotency-Key) recognizes every piece once", async () => {
  const user = await createTestUser();
  const engineRuns = observeEngine();
  try {
    const [first, second] = await Promise.all([upload(user.key, {}, "twice"), upload(user.key, {}, "twice")]);
    assert.equal(first.status, 200, first.text);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.text, first.body.text);
    assert.equal(engineRuns.runs(), 3, "three pieces, each recognized once for both uploads");
    const keyed = await upload(user.key, { "idempotency-key": "pieces-1" }, "twice");
    const again = await upload(user.key, { "idempotency-key": "pieces-1" }, "twice");
    assert.equal(keyed.status, 200, keyed.text);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal(keyed.body.text, first.body.text);
    assert.equal(engineRuns.runs(), 3, "a later upload of the same recording reuses the recognized pieces");
  } finally {
    engineRuns.restore();
  }
});

test("a recording's first piece starts from the person's kept voice, and where it settled is kept for the next", async () => {
  const user = await createTestUser();
  const prisma = await db();
  const kept = [61.5, 20.6, -30.3, 13.9, -19.2, -3.5, -14.1, -2.3, 3.7, 2.4, 3.9, 5.8, -2.2];
  await prisma.speakerProfile.create({ data: { userId: user.id, cepstralMean: kept } });
  const means = new Map<number, number[] | undefined>();
  const engineRuns = observeEngine((_, input) => (means.set(means.size, input.cepstralMean), false));
  try {
    const res = await upload(user.key);
    assert.equal(res.status, 200, res.text);
    assert.equal(engineRuns.runs(), 3);
    // The first run had no earlier piece heard: it started from the kept voice, not the model's.
    assert.deepEqual(means.get(0), kept);
    const after = await prisma.speakerProfile.findUniqueOrThrow({ where: { userId: user.id } });
    assert.equal((after.cepstralMean as number[]).length, 13);
    assert.notDeepEqual(after.cepstralMean, kept, "replaced by where this recording's voice settled");
  } finally {
    engineRuns.restore();
  }
});

test("a piece whose recognition fails once is retried and the text is complete", async () => {
  const user = await createTestUser();
  const engineRuns = observeEngine((run) => run === 1);
  try {
    const res = await upload(user.key, {}, "retry");
    assert.equal(res.status, 200, res.text);
    assert.equal(engineRuns.runs(), 4, "three pieces and one retry");
    const workflow = await workflowOf(user.id);
    assert.deepEqual(workflow.pieces.map((p) => p.attempts).sort(), [1, 1, 2]);
    assert.equal(res.body.segments.length, 3);
  } finally {
    engineRuns.restore();
  }
});

test("a piece the recognizer is too busy for waits for it, more times than a failure is retried, and no attempt is counted", async () => {
  const user = await createTestUser();
  // Busy (its queue full) five times in a row: a failure would have failed the piece after three.
  const engineRuns = observeEngine((run) => run <= 5, () => new EngineBusyError("The recognizer is busy with other recordings; try again shortly.", 1));
  try {
    const res = await upload(user.key, {}, "busy");
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.segments.length, 3);
    assert.equal(engineRuns.runs(), 8, "five busy answers, then the three pieces");
    const workflow = await workflowOf(user.id);
    assert.equal(workflow.status, "completed");
    assert.deepEqual(workflow.pieces.map((p) => p.attempts), [1, 1, 1], "a busy answer is no attempt");
  } finally {
    engineRuns.restore();
  }
});

test("pieces that fail on every attempt fail the request with 502 engine_failed; a new upload tries them again", async () => {
  const user = await createTestUser();
  let failing = true;
  const engineRuns = observeEngine(() => failing);
  try {
    const res = await upload(user.key, {}, "broken");
    assert.equal(res.status, 502, res.text);
    assert.equal(res.body.error.code, "engine_failed");
    let workflow = await workflowOf(user.id);
    assert.equal(workflow.status, "failed");
    assert.ok(workflow.pieces.every((p) => p.status === "failed"));
    assert.ok(workflow.pieces.every((p) => p.audio === null), "no audio is kept after a failure");
    assert.ok(workflow.pieces.some((p) => p.attempts === 3), "a failing piece runs once and is retried twice");

    failing = false;
    const runsBefore = engineRuns.runs();
    const retried = await upload(user.key, {}, "broken");
    assert.equal(retried.status, 200, retried.text);
    assert.equal(engineRuns.runs() - runsBefore, 3);
    workflow = await workflowOf(user.id);
    assert.equal(workflow.status, "completed");
    assert.ok(workflow.pieces.every((p) => p.status === "completed" && p.audio === null));
  } finally {
    engineRuns.restore();
  }
});
