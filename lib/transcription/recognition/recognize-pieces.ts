import { db } from "@/lib/db/client.ts";
import { isUniqueViolation } from "@/lib/db/unique-violation.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { errorFields, log } from "@/lib/log.ts";
import { measureWav } from "@/lib/transcription/audio/decode-audio.ts";
import type { Piece } from "@/lib/transcription/audio/plan-pieces.ts";
import { pieceWav } from "@/lib/transcription/recognition/recognize-pieces-audio.ts";
import { dispatchPiece, whenPieceSettles, type PieceResult } from "@/lib/transcription/recognition/recognize-pieces-job.ts";

// The request's side of a recording recognized in pieces: the pieces stored (their audio in the
// database, where every worker can read it) and queued, then awaited in order. The workflow is
// keyed by user and request hash, so a retried upload joins the first one's workflow and its
// finished pieces are never recognized again.

const POLL_MS = 200;

export type RecognizedPiece = { index: number; start: number; end: number; result: PieceResult };

type RecognizePiecesArgs = {
  userId: string;
  requestHash: string;
  wavPath: string;
  durationSec: number;
  pieces: Piece[];
  prompt?: string;
  language?: string;
  /** The client went away: stop waiting (the pieces are still recognized, for a retry to reuse). */
  signal?: AbortSignal;
  /** Each piece as soon as it and every piece before it are recognized, in order. */
  onPiece?: (piece: RecognizedPiece) => void;
};

/** Recognizes the pieces on the job queue; resolves with every piece's recognition, in order. */
export async function recognizePieces(args: RecognizePiecesArgs): Promise<RecognizedPiece[]> {
  const workflowId = await startWorkflow(args);
  return waitForPieces(workflowId, { count: args.pieces.length, signal: args.signal, onPiece: args.onPiece });
}

async function startWorkflow({ userId, requestHash, wavPath, durationSec, pieces, prompt, language }: RecognizePiecesArgs): Promise<string> {
  const prisma = await db();
  let workflow = await prisma.recognitionWorkflow.findUnique({ where: { userId_requestHash: { userId, requestHash } }, select: { id: true, status: true } });
  if (!workflow) {
    try {
      workflow = await prisma.recognitionWorkflow.create({
        data: { userId, requestHash, status: "running", piecesTotal: pieces.length, durationSec, prompt, language },
        select: { id: true, status: true },
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // A concurrent upload of the same recording created it first: share that one.
      workflow = await prisma.recognitionWorkflow.findUniqueOrThrow({ where: { userId_requestHash: { userId, requestHash } }, select: { id: true, status: true } });
    }
  }
  if (workflow.status === "completed") return workflow.id;
  const workflowId = workflow.id;
  const { dataOffset } = await measureWav(wavPath);
  if (workflow.status === "failed") {
    // A new upload of a recording whose recognition failed tries the unfinished pieces once more.
    const reopened = await prisma.recognitionWorkflow.updateMany({
      where: { id: workflowId, status: "failed" },
      data: { status: "running", errorCode: null, errorMessage: null, completedAt: null },
    });
    if (reopened.count) {
      const failed = await prisma.recognitionPiece.findMany({ where: { workflowId, status: "failed" }, select: { index: true, startSec: true, endSec: true } });
      for (const piece of failed) {
        const audio = await pieceWav(wavPath, dataOffset, { start: piece.startSec, end: piece.endSec });
        const { count } = await prisma.recognitionPiece.updateMany({
          where: { workflowId, index: piece.index, status: "failed" },
          data: { status: "pending", audio: new Uint8Array(audio), attempts: 0, errorCode: null, errorMessage: null, executionId: null },
        });
        if (count) await dispatch(workflowId, piece.index);
      }
    }
  }
  // Every piece not stored yet (new workflow, or one whose first request stopped before storing
  // them all) is stored and queued, one at a time so workers start while the rest are stored.
  const stored = new Set((await prisma.recognitionPiece.findMany({ where: { workflowId }, select: { index: true } })).map((p) => p.index));
  for (const [index, piece] of pieces.entries()) {
    if (stored.has(index)) continue;
    const audio = await pieceWav(wavPath, dataOffset, piece);
    try {
      await prisma.recognitionPiece.create({
        data: { workflowId, index, startSec: piece.start, endSec: piece.end, status: "pending", audio: new Uint8Array(audio) },
        select: { index: true },
      });
    } catch (err) {
      if (isUniqueViolation(err)) continue; // a concurrent upload stored it
      throw err;
    }
    await dispatch(workflowId, index);
  }
  return workflowId;
}

export async function dispatch(workflowId: string, index: number): Promise<void> {
  // If the queue is unreachable now, the piece stays pending and the recovery sweep dispatches it.
  await dispatchPiece(workflowId, index).catch((err) => log.error("recognition piece dispatch failed", errorFields(err)));
}

/** Resolves with the first `count` pieces of a workflow once each is recognized, in order. */
export async function waitForPieces(
  workflowId: string,
  { count, signal, onPiece }: { count: number } & Pick<RecognizePiecesArgs, "signal" | "onPiece">,
): Promise<RecognizedPiece[]> {
  const prisma = await db();
  const done: RecognizedPiece[] = [];
  const results = new Map<number, RecognizedPiece>();
  for (;;) {
    signal?.throwIfAborted();
    // One read per poll: the workflow's state with the pieces finished since the last one.
    const workflow = await prisma.recognitionWorkflow.findUnique({
      where: { id: workflowId },
      select: {
        status: true,
        pieces: {
          where: { status: { in: ["completed", "failed"] }, index: { notIn: [...results.keys()] } },
          select: { index: true, status: true, startSec: true, endSec: true, result: true },
        },
      },
    });
    if (!workflow) throw new ApiError("engine_failed", "The recognition of this recording was removed while it ran.");
    const rows = workflow.pieces;
    if (rows.some((r) => r.status === "failed")) throw await workflowError(workflowId);
    for (const row of rows) {
      results.set(row.index, { index: row.index, start: row.startSec, end: row.endSec, result: row.result as PieceResult });
    }
    while (results.has(done.length)) {
      const next = results.get(done.length)!;
      done.push(next);
      onPiece?.(next);
    }
    if (done.length >= count) return done;
    if (workflow.status === "failed") throw await workflowError(workflowId);
    // Woken at once by a piece settled in this process (most are); others are found by polling.
    await sleep(POLL_MS, signal, (wake) => whenPieceSettles(workflowId, wake));
  }
}

/** Why the recognition failed: the piece that failed for good says, else the workflow. */
async function workflowError(workflowId: string): Promise<ApiError> {
  const prisma = await db();
  const piece = await prisma.recognitionPiece.findFirst({ where: { workflowId, status: "failed", errorCode: { not: null } }, select: { errorCode: true, errorMessage: true } });
  const workflow = piece ?? (await prisma.recognitionWorkflow.findUnique({ where: { id: workflowId }, select: { errorCode: true, errorMessage: true } }));
  return pieceError(workflow?.errorCode ?? null, workflow?.errorMessage ?? null);
}

function pieceError(code: string | null, message: string | null): ApiError {
  if (code === "engine_unavailable") return new ApiError("engine_unavailable", message ?? "The speech recognizer is not available.");
  return new ApiError("engine_failed", message ?? "The speech recognizer failed on a piece of the recording.");
}

/** Waits `ms`, or less when aborted or woken by `wakeOn` (which subscribes `wake` and returns its unsubscribe). */
function sleep(ms: number, signal?: AbortSignal, wakeOn?: (wake: () => void) => () => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    const unsubscribe = wakeOn?.(done);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      unsubscribe?.();
      resolve();
    }
  });
}
