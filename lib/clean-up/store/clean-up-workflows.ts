import { db } from "@/lib/db/client.ts";
import type { CleanUpWorkflow, Prisma } from "@/lib/db/generated/client.ts";
import type { Db } from "@/lib/db/types.ts";

// The clean-up's store (lib/clean-up/store): every query and write of the clean-up's tables
// (optimization_workflows and their chunks) goes through these files, and no other file names
// them (tests/unit/layering.test.ts); the note's store reads a note's clean-up beside it.

export const client = async (tx?: Db): Promise<Db> => tx ?? (await db());

/** A clean-up by id; throws when missing. */
export async function getCleanUp(id: string): Promise<CleanUpWorkflow> {
  return (await client()).cleanUpWorkflow.findUniqueOrThrow({ where: { id } });
}

/** A clean-up with its chunks' progress (for operators); null when missing. */
export async function findCleanUpStatus(id: string) {
  return (await client()).cleanUpWorkflow.findUnique({
    where: { id },
    include: { chunks: { select: { index: true, attempts: true, completedAt: true }, orderBy: { index: "asc" } } },
  });
}

/** The person's clean-up of one recording (its request hash); null when there is none. */
export async function findCleanUpOfRecording({ userId, requestHash }: { userId: string; requestHash: string }) {
  return (await client()).cleanUpWorkflow.findUnique({ where: { userId_requestHash: { userId, requestHash } }, select: { id: true, status: true, mode: true } });
}

/** findCleanUpOfRecording for one known to exist (a concurrent upload created it); throws when missing. */
export async function getCleanUpOfRecording({ userId, requestHash }: { userId: string; requestHash: string }): Promise<CleanUpWorkflow> {
  return (await client()).cleanUpWorkflow.findUniqueOrThrow({ where: { userId_requestHash: { userId, requestHash } } });
}

/** Whether the clean-up still exists (one of the person's, when `userId` is given). */
export async function cleanUpExists({ id, userId }: { id: string; userId?: string }): Promise<boolean> {
  return (await (await client()).cleanUpWorkflow.count({ where: { id, ...(userId !== undefined && { userId }) } })) > 0;
}

/** Background clean-ups whose lease matches `leases` (an `OR` of lib/jobs' staleLeases), at most 100. */
export async function findStaleCleanUps(leases: Prisma.CleanUpWorkflowWhereInput[]) {
  return (await client()).cleanUpWorkflow.findMany({
    where: { mode: "background", OR: leases },
    select: { id: true, jobId: true, updatedAt: true },
    take: 100,
  });
}

/** A new clean-up with its chunks; its id. */
export async function createCleanUp(data: Prisma.CleanUpWorkflowUncheckedCreateInput): Promise<string> {
  return (await (await client()).cleanUpWorkflow.create({ data, select: { id: true } })).id;
}

/** Remembers the queue job of a clean-up not finished yet. */
export async function setCleanUpJob(id: string, jobId: string): Promise<void> {
  await (await client()).cleanUpWorkflow.updateMany({ where: { id, status: { in: ["pending", "running"] } }, data: { jobId } });
}

/** Clears the heartbeat of a stale clean-up, matched as it was read; false when someone changed it since. */
export async function releaseCleanUpLease({ id, updatedAt }: { id: string; updatedAt: Date }): Promise<boolean> {
  return (await (await client()).cleanUpWorkflow.updateMany({ where: { id, updatedAt }, data: { heartbeatAt: null } })).count > 0;
}

/** A failed clean-up back to pending under a new call id; false when it was not failed (retried already). */
export async function retryFailedCleanUp(id: string, callId: string): Promise<boolean> {
  const { count } = await (await client()).cleanUpWorkflow.updateMany({
    where: { id, status: "failed" },
    data: { status: "pending", callId, errorCode: null, errorMessage: null, completedAt: null, heartbeatAt: null },
  });
  return count > 0;
}

/** Deletes the person's clean-up (its chunks cascade). */
export async function deleteCleanUp({ id, userId, tx }: { id: string; userId: string; tx: Db }): Promise<void> {
  await tx.cleanUpWorkflow.deleteMany({ where: { id, userId } });
}
