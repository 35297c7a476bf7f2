import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { env } from "@/lib/env.ts";
import { log } from "@/lib/log.ts";
import { abortRunningPiece, runningHere } from "@/lib/transcription/recognition/running-pieces.ts";
import { recognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";

// At Stop, the phone's last append has often just closed the last sentence as one long live piece
// (11 s: 3.6 s of PocketSphinx on one core while the other idles). Finish takes such trailing
// pieces back — not yet started, or started here only just — so that the final cut shares them
// with the rest among the recognizers, heard in one round (bench:live-finish).

/** A run younger than this is stopped and its piece cut again: little of its work is lost. */
export const TAKE_BACK_RUNNING_SECONDS = 1.5;
/** How many of the last pieces are looked at: a backlog longer than this is not what this is for. */
const LOOK_BACK = 16;

/** One of a recording's last pieces; `runningHereSeconds` only when this process runs it. */
export type TailPiece = { index: number; status: string; runningHereSeconds?: number };

/**
 * The indexes of the trailing pieces to take back (of `pieces`, the last ones cut, in order, the
 * last being `piecesCut - 1`): each still pending, or running in this process for less than
 * TAKE_BACK_RUNNING_SECONDS when a run can be stopped; the walk back stops at the first other one.
 * None with a single recognizer: there is no idle one to share with.
 */
export function piecesToTakeBack(
  pieces: TailPiece[],
  { piecesCut, recognizers, canStopRuns }: { piecesCut: number; recognizers: number; canStopRuns: boolean },
): number[] {
  if (recognizers < 2) return [];
  let first = pieces.length;
  while (first > 0) {
    const piece = pieces[first - 1];
    const expected = piecesCut - (pieces.length - first) - 1;
    if (piece.index !== expected || !canTakeBack(piece, canStopRuns)) break;
    first--;
  }
  return pieces.slice(first).map((p) => p.index);
}

function canTakeBack(piece: TailPiece, canStopRuns: boolean): boolean {
  if (piece.status === "pending") return true;
  return piece.status === "running" && canStopRuns && piece.runningHereSeconds !== undefined && piece.runningHereSeconds < TAKE_BACK_RUNNING_SECONDS;
}

type LiveRowLike = { userId: string; id: string; heardUntil: number; piecesCut: number; workflowId: string };

/** The transaction found a piece or the recording changed since they were read. */
class TakeBackLost extends Error {}

/**
 * Removes the trailing pieces that are worth cutting again and moves the recording's
 * `heardUntil`/`piecesCut` back to the first of them; resolves with the row as it is now. When
 * anything changed meanwhile (a piece finished or was claimed elsewhere, another cut stored
 * pieces), nothing is taken and the row is as it was. Run it inside the recording's cut queue.
 */
export async function takeBackLastPieces<R extends LiveRowLike>(row: R): Promise<R> {
  const prisma = await db();
  const tail = (
    await prisma.recognitionPiece.findMany({
      where: { workflowId: row.workflowId, index: { lt: row.piecesCut } },
      orderBy: { index: "desc" },
      take: LOOK_BACK,
      select: { index: true, status: true, executionId: true, startSec: true },
    })
  ).reverse();
  // This process's run of a piece, if the row says that run holds it.
  const runOf = (p: (typeof tail)[number]) => {
    const run = p.status === "running" ? runningHere(row.workflowId, p.index) : undefined;
    return run && run.executionId === p.executionId ? run : undefined;
  };
  const now = Date.now();
  const engine = await recognitionEngine().catch(() => undefined);
  const taken = piecesToTakeBack(
    tail.map((p) => {
      const run = runOf(p);
      return { index: p.index, status: p.status, runningHereSeconds: run ? (now - run.startedAt) / 1000 : undefined };
    }),
    { piecesCut: row.piecesCut, recognizers: env().RECOGNIZERS_PER_PROCESS, canStopRuns: engine?.stopsWhenAborted === true },
  );
  if (!taken.length) return row;
  const first = tail.find((p) => p.index === taken[0])!;
  const stopped = tail.filter((p) => taken.includes(p.index) && runOf(p)).map((p) => ({ index: p.index, executionId: p.executionId! }));
  const moved = { heardUntil: first.startSec, piecesCut: first.index };

  try {
    await prisma.$transaction(async (tx) => {
      // Only pieces still as they were read: one finished or claimed meanwhile is never lost.
      const removed = await tx.recognitionPiece.deleteMany({
        where: {
          workflowId: row.workflowId,
          index: { in: taken },
          OR: [{ status: "pending" }, { status: "running", executionId: { in: stopped.map((s) => s.executionId) } }],
        },
      });
      if (removed.count !== taken.length) throw new TakeBackLost();
      const rewound = await tx.liveRecording.updateMany({
        where: { userId: row.userId, id: row.id, heardUntil: row.heardUntil, piecesCut: row.piecesCut },
        data: moved,
      });
      if (!rewound.count) throw new TakeBackLost();
    }, TRANSACTION_OPTIONS);
  } catch (err) {
    if (err instanceof TakeBackLost) return row;
    throw err;
  }
  // After the commit, not before: a run stopped for a take-back that then failed would be lost.
  for (const run of stopped) abortRunningPiece(row.workflowId, run.index, run.executionId);
  log.info("live recording: last pieces taken back at Stop", { recording_id: row.id, pieces: taken.length, stopped: stopped.length, from_seconds: first.startSec });
  return { ...row, ...moved };
}
