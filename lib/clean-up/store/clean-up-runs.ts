import { db } from "@/lib/db/client.ts";
import type { CleanUpChunk, Prisma } from "@/lib/db/generated/client.ts";
import { client } from "@/lib/clean-up/store/clean-up-workflows.ts";

// An execution's lease on a clean-up (claimed, kept by a heartbeat, released) and the chunks it
// stores as it finishes them: each write matches the execution that holds the lease.

/** Claims the clean-up for `executionId` when it is pending or its holder's heartbeat stopped before `staleBefore`. */
export async function claimCleanUp({ id, executionId, jobId, staleBefore }: { id: string; executionId: string; jobId: string | null; staleBefore: Date }): Promise<boolean> {
  const prisma = await client();
  const { count } = await prisma.cleanUpWorkflow.updateMany({
    where: {
      id,
      OR: [
        { status: "pending" },
        { status: "running", OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: staleBefore } }] },
      ],
    },
    data: { status: "running", executionId, jobId, heartbeatAt: new Date(), executions: { increment: 1 } },
  });
  if (count) await prisma.cleanUpWorkflow.updateMany({ where: { id, startedAt: null }, data: { startedAt: new Date() } });
  return count === 1;
}

/** Updates the clean-up only while `executionId` still holds it; false when it lost the lease. */
export async function updateHeldCleanUp(id: string, executionId: string, data: Prisma.CleanUpWorkflowUpdateManyMutationInput): Promise<boolean> {
  const { count } = await (await client()).cleanUpWorkflow.updateMany({ where: { id, executionId, status: "running" }, data });
  return count === 1;
}

/** The clean-up's chunks in order (only those not cleaned up yet, with `pending`). */
export async function listCleanUpChunks(workflowId: string, { pending = false } = {}): Promise<CleanUpChunk[]> {
  return (await client()).cleanUpChunk.findMany({ where: { workflowId, ...(pending && { outputText: null }) }, orderBy: { index: "asc" } });
}

/**
 * Stores one cleaned-up chunk and counts it done, in one transaction, while `executionId` still
 * holds the clean-up; false (nothing stored) when it lost the lease.
 */
export async function saveCleanUpChunk({
  workflowId,
  executionId,
  index,
  outputText,
  rejectedReason,
}: {
  workflowId: string;
  executionId: string;
  index: number;
  outputText: string;
  rejectedReason: string | undefined;
}): Promise<boolean> {
  return (await db()).$transaction(async (tx) => {
    const held = await tx.cleanUpWorkflow.updateMany({
      where: { id: workflowId, executionId, status: "running" },
      data: { chunksDone: { increment: 1 }, heartbeatAt: new Date(), rejectedReason },
    });
    if (!held.count) return false;
    await tx.cleanUpChunk.update({
      where: { workflowId_index: { workflowId, index } },
      data: { outputText, attempts: { increment: 1 }, completedAt: new Date() },
    });
    return true;
  });
}
