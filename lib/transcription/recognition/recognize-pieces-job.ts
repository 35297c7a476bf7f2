import { randomUUID } from "node:crypto";
import type { Urgency } from "@/lib/transcription/recognizers/priority.ts";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import type { Prisma } from "@/lib/db/generated/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import type { Db } from "@/lib/db/types.ts";
import { env } from "@/lib/env.ts";
import { defineJob } from "@/lib/jobs/define-job.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { recoverStale, staleLeases } from "@/lib/jobs/recover-stale.ts";
import { errorFields, log } from "@/lib/log.ts";
import { rememberSpeakerMean, speakerMean } from "@/lib/transcription/recognition/speaker-profile.ts";
import { recognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { EngineBusyError, EngineUnavailableError, type Recognition } from "@/lib/transcription/recognizers/types.ts";

// One piece of a long recording, recognized by whichever app or worker process takes its job. A
// run first claims the piece (a lease kept alive by a heartbeat), so two workers never recognize
// the same piece at once; a lease whose heartbeat stopped (the worker died) is given to a new job
// by the sweep. The result is stored with the piece and its audio removed at once, so a retried
// job or upload finds it done.

/** How often a worker renews its lease: several times within the stale limit, at most every 5 s. */
const heartbeatMs = () => Math.min(5_000, (env().RECOGNITION_PIECE_STALE_SECONDS * 1000) / 4);

export type PieceResult = Pick<Recognition, "text" | "segments" | "language" | "engine" | "model" | "cepstralMean"> & {
  /** The live stream's words (a caption's lighter search), taken at Stop: a second pass hears the piece again (hear-again.ts). */
  provisional?: true;
};

/** What a piece keeps of its recognition (`provisional`: the words are the live stream's). */
export function pieceResult(recognition: Recognition, { provisional = false } = {}): PieceResult {
  return {
    ...(provisional && { provisional: true as const }),
    text: recognition.text,
    segments: recognition.segments,
    language: recognition.language,
    engine: recognition.engine,
    ...(recognition.model && { model: recognition.model }),
    ...(recognition.cepstralMean && { cepstralMean: recognition.cepstralMean }),
  };
}

export const recognizePieceJob = defineJob({
  name: "recognize-piece",
  payload: z.strictObject({ workflowId: z.string().min(1).max(100), index: z.number().int().min(0).max(100_000) }),
  retryLimit: 2,
  retryDelaySeconds: 1,
  expireInSeconds: 30 * 60,
  concurrency: () => env().RECOGNIZERS_PER_PROCESS,
  async run({ workflowId, index }, { jobId, lastAttempt }) {
    await runPiece({ workflowId, index, jobId, final: lastAttempt });
  },
});

/** Queues a run of the piece and remembers its job. */
export async function dispatchPiece(workflowId: string, index: number, options: { startAfterSeconds?: number } = {}): Promise<string> {
  const jobId = await enqueueJob(recognizePieceJob, { workflowId, index }, options);
  const prisma = await db();
  await prisma.recognitionPiece.updateMany({ where: { workflowId, index, status: { in: ["pending", "running"] } }, data: { jobId } });
  return jobId;
}

type PieceKey = { workflowId: string; index: number };

// A request waiting for a workflow's pieces in this process (Stop, an upload) hears at once when
// one of them settles here, instead of at its next poll (200 ms apart): most pieces are recognized
// by the process that waits for them. Pieces settled by another process are found by polling.
const settledListeners = new Map<string, Set<() => void>>();

/** Calls `listener` whenever a piece of the workflow is completed or fails in this process; returns the unsubscribe. */
export function whenPieceSettles(workflowId: string, listener: () => void): () => void {
  let listeners = settledListeners.get(workflowId);
  if (!listeners) settledListeners.set(workflowId, (listeners = new Set()));
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (!listeners.size && settledListeners.get(workflowId) === listeners) settledListeners.delete(workflowId);
  };
}

/**
 * The workflow's pieces not recognized yet (waiting, or being recognized) are completed with what
 * another recognizer heard in their seconds (a live recording's stream, at Stop). A recognition
 * still running on one of them then finds it no longer held, and its result is dropped.
 */
export async function completeWaitingPieces(workflowId: string, heard: (start: number, end: number) => Recognition): Promise<number> {
  const prisma = await db();
  // Failed ones too: on a busy server a live piece's recognizer could give up ("busy"), failing the
  // workflow, though the stream heard its seconds (bench:live-load). The workflow runs again.
  const waiting = await prisma.recognitionPiece.findMany({
    where: { workflowId, status: { in: ["pending", "running", "failed"] } },
    select: { index: true, startSec: true, endSec: true },
  });
  let completed = 0;
  for (const piece of waiting) {
    const result = pieceResult(heard(piece.startSec, piece.endSec), { provisional: true });
    const { count } = await prisma.recognitionPiece.updateMany({
      where: { workflowId, index: piece.index, status: { in: ["pending", "running", "failed"] } },
      data: { status: "completed", result: result as Prisma.InputJsonValue, audio: null, executionId: null, heartbeatAt: null, errorCode: null, errorMessage: null, completedAt: new Date() },
    });
    completed += count;
  }
  if (completed) {
    await prisma.recognitionWorkflow.updateMany({ where: { id: workflowId, status: "failed" }, data: { status: "running", errorCode: null, errorMessage: null, completedAt: null } });
  }
  if (completed) pieceSettled(workflowId);
  return completed;
}

function pieceSettled(workflowId: string): void {
  for (const listener of [...(settledListeners.get(workflowId) ?? [])]) listener();
}

async function claim({ workflowId, index }: PieceKey, executionId: string, jobId: string | null): Promise<boolean> {
  const prisma = await db();
  const staleBefore = new Date(Date.now() - env().RECOGNITION_PIECE_STALE_SECONDS * 1000);
  const { count } = await prisma.recognitionPiece.updateMany({
    where: {
      workflowId,
      index,
      audio: { not: null },
      OR: [{ status: "pending" }, { status: "running", OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: staleBefore } }] }],
    },
    data: { status: "running", executionId, jobId, heartbeatAt: new Date(), attempts: { increment: 1 } },
  });
  return count === 1;
}

/** Updates the piece only while this execution still holds it; false when it lost the lease. */
async function whileHeld(
  { workflowId, index }: PieceKey,
  executionId: string,
  data: Prisma.RecognitionPieceUpdateManyMutationInput,
  client?: Db,
): Promise<boolean> {
  const prisma = client ?? (await db());
  const { count } = await prisma.recognitionPiece.updateMany({ where: { workflowId, index, executionId, status: "running" }, data });
  return count === 1;
}

/**
 * The whole recognition fails: its pieces that are not done are marked failed and their audio
 * removed (a new upload of the recording brings the audio again and retries them).
 */
export async function failWorkflow(workflowId: string, code: string, message: string, tx?: Db): Promise<void> {
  const run = async (client: Db) => {
    await client.recognitionWorkflow.updateMany({
      where: { id: workflowId, status: "running" },
      data: { status: "failed", errorCode: code, errorMessage: message, completedAt: new Date() },
    });
    await client.recognitionPiece.updateMany({
      where: { workflowId, status: { not: "completed" } },
      data: { status: "failed", audio: null, heartbeatAt: null },
    });
  };
  if (tx) return run(tx);
  await (await db()).$transaction(run, TRANSACTION_OPTIONS);
}

/**
 * This execution gives its piece up, and with it the workflow, in one transaction: the request
 * waiting for the pieces never sees a failed piece of a workflow still running. Nothing happens
 * when the execution had lost the piece's lease.
 */
async function givePieceUp(key: PieceKey, executionId: string, code: string, message: string): Promise<void> {
  await (await db()).$transaction(async (tx) => {
    const failed = { status: "failed", errorCode: code, errorMessage: message, audio: null, heartbeatAt: null } as const;
    if (await whileHeld(key, executionId, failed, tx)) await failWorkflow(key.workflowId, code, message, tx);
  }, TRANSACTION_OPTIONS);
}

function failure(err: unknown): { code: string; message: string; retryable: boolean } {
  if (err instanceof EngineUnavailableError) return { code: "engine_unavailable", message: err.message, retryable: false };
  return { code: "engine_failed", message: "The speech recognizer failed on a piece of the recording.", retryable: true };
}

export type PieceOutcome = "completed" | "failed" | "skipped";

/**
 * Recognizes one piece. `final`: a failure now is the last word (no retry will follow), so the
 * piece and its workflow fail; otherwise the piece is released for the job's retry.
 */
export async function runPiece({
  workflowId,
  index,
  jobId = null,
  final = true,
  urgency = "normal",
}: PieceKey & { jobId?: string | null; final?: boolean; urgency?: Urgency }): Promise<PieceOutcome> {
  const key = { workflowId, index };
  const executionId = randomUUID();
  if (!(await claim(key, executionId, jobId))) return "skipped";
  const prisma = await db();
  const fields = { recognition_workflow_id: workflowId, piece: index, execution_id: executionId };
  const heartbeat = setInterval(() => void whileHeld(key, executionId, { heartbeatAt: new Date() }).catch(() => undefined), heartbeatMs());
  heartbeat.unref();
  const dir = await mkdtemp(path.join(tmpdir(), "vd-piece-"));
  try {
    const piece = await prisma.recognitionPiece.findUniqueOrThrow({
      where: { workflowId_index: key },
      select: { audio: true, startSec: true, endSec: true, workflow: { select: { userId: true, prompt: true, language: true } } },
    });
    if (!piece.audio) return "skipped";
    const wavPath = path.join(dir, "piece.wav");
    await writeFile(wavPath, piece.audio);
    const engine = await recognitionEngine();
    const recognition = await engine.recognize({
      wavPath,
      durationSec: piece.endSec - piece.startSec,
      prompt: piece.workflow.prompt ?? undefined,
      language: piece.workflow.language ?? undefined,
      cepstralMean: (await previousCepstralMean(key)) ?? (await speakerMean(piece.workflow.userId)),
      urgency,
    });
    const result = pieceResult(recognition);
    const saved = await whileHeld(key, executionId, {
      status: "completed",
      result: result as Prisma.InputJsonValue,
      audio: null,
      heartbeatAt: null,
      errorCode: null,
      errorMessage: null,
      completedAt: new Date(),
    });
    if (!saved) {
      // Stop gave it the stream's words meanwhile (completeWaitingPieces): as meant, no lease lost.
      const now = await prisma.recognitionPiece.findUnique({ where: { workflowId_index: { workflowId, index } }, select: { status: true, executionId: true } });
      if (now?.status === "completed" && now.executionId === null) log.info("recognition piece heard by the stream first; this recognition is dropped", fields);
      else log.warn("recognition piece lease lost", fields);
      return "skipped";
    }
    pieceSettled(workflowId);
    await rememberSpeakerMean(piece.workflow.userId, recognition.cepstralMean);
    await completeWorkflowIfDone(workflowId);
    return "completed";
  } catch (err) {
    if (err instanceof EngineBusyError) {
      // Busy is not broken: the piece waits for a free recognizer, this attempt not counted, and
      // runs again when the recognizer expects to have room. Three busy answers in a row used to
      // fail the piece, and with it the recording's workflow (bench:live-load, a busy server).
      log.info("recognition piece waits: the recognizer is busy", { ...fields, retry_after_sec: err.retryAfterSeconds });
      const released = await whileHeld(key, executionId, { status: "pending", heartbeatAt: null, executionId: null, attempts: { decrement: 1 } });
      if (released) await dispatchPiece(workflowId, index, { startAfterSeconds: err.retryAfterSeconds });
      return "skipped";
    }
    const { code, message, retryable } = failure(err);
    const giveUp = final || !retryable;
    log.warn(giveUp ? "recognition piece failed" : "recognition piece attempt failed", { ...fields, error_code: code, ...errorFields(err) });
    if (giveUp) {
      await givePieceUp(key, executionId, code, message);
      pieceSettled(workflowId);
      return "failed";
    }
    await whileHeld(key, executionId, { status: "pending", heartbeatAt: null, errorCode: code, errorMessage: message });
    throw err;
  } finally {
    clearInterval(heartbeat);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Where the speaker's cepstral mean stood after the nearest earlier piece already heard (a live
 * recording's pieces are mostly heard in order), for the recognizer to start from; undefined
 * when none is done yet or its recognizer keeps none (then the person's latest: speakerMean).
 */
async function previousCepstralMean({ workflowId, index }: PieceKey): Promise<number[] | undefined> {
  const prisma = await db();
  const previous = await prisma.recognitionPiece.findFirst({
    where: { workflowId, index: { lt: index }, status: "completed" },
    orderBy: { index: "desc" },
    select: { result: true },
  });
  // As stored; the recognizer checks its shape (PocketSphinx: isCepstralMean) before using it.
  return (previous?.result as PieceResult | null)?.cepstralMean;
}

async function completeWorkflowIfDone(workflowId: string): Promise<void> {
  const prisma = await db();
  const left = await prisma.recognitionPiece.count({ where: { workflowId, status: { not: "completed" } } });
  const workflow = await prisma.recognitionWorkflow.findUnique({ where: { id: workflowId }, select: { piecesTotal: true } });
  const done = await prisma.recognitionPiece.count({ where: { workflowId, status: "completed" } });
  if (!left && workflow && done === workflow.piecesTotal) {
    await prisma.recognitionWorkflow.updateMany({ where: { id: workflowId, status: "running" }, data: { status: "completed", completedAt: new Date() } });
  }
}

const MAX_ATTEMPTS = 5;

/**
 * Pieces that nobody is working on — a run whose worker died (its heartbeat stopped), or a
 * dispatch that never reached the queue — get a new job. Every worker process runs this
 * periodically.
 */
export async function recoverStalePieces({ staleSeconds }: { staleSeconds?: number } = {}): Promise<PieceKey[]> {
  const prisma = await db();
  const staleBefore = new Date(Date.now() - (staleSeconds ?? env().RECOGNITION_PIECE_STALE_SECONDS) * 1000);
  const candidates = await prisma.recognitionPiece.findMany({
    where: { audio: { not: null }, OR: staleLeases(staleBefore) },
    select: { workflowId: true, index: true, jobId: true, updatedAt: true, attempts: true },
    take: 100,
  });
  const recovered = (
    await recoverStale(
      recognizePieceJob,
      candidates,
      async (piece) =>
        (
          await prisma.recognitionPiece.updateMany({
            where: { workflowId: piece.workflowId, index: piece.index, updatedAt: piece.updatedAt },
            data: { status: "pending", heartbeatAt: null, executionId: null },
          })
        ).count > 0,
      async (piece) => {
        if (piece.attempts >= MAX_ATTEMPTS) {
          // A piece whose workers keep dying (e.g. killed for memory) is not handed out for ever.
          await failWorkflow(piece.workflowId, "engine_failed", "The speech recognizer stopped on a piece of the recording several times.");
          return false;
        }
        await dispatchPiece(piece.workflowId, piece.index);
        return true;
      },
    )
  ).map(({ workflowId, index }) => ({ workflowId, index }));
  if (recovered.length) log.info("recognition pieces recovered", { count: recovered.length });
  return recovered;
}
