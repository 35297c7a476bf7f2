import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { enqueueGeneration } from "@/lib/posts/generation/generation-job.ts";
import { createGenerationTask, snapshotOf, type SourceSnapshot } from "@/lib/posts/generation/generation-task.ts";
import { loadItem } from "@/lib/posts/items/load-item.ts";
import { getPostById, lockPost } from "@/lib/posts/store/owned-post.ts";
import type { ContentItem, RegenerateInput } from "@/lib/posts/schemas.ts";

/**
 * A new generation task for a variant, from its source snapshot (or, with source "master", a new
 * snapshot of the master). The task remembers the variant's version: if the user edits the
 * variant before the result arrives, the result is set aside, not applied. Older unfinished
 * tasks are superseded.
 */
export async function regenerateVariant({ userId, id, input }: { userId: string; id: string; input: RegenerateInput }): Promise<{
  item: ContentItem;
  task_id: string;
}> {
  const prisma = await db();
  const { item, taskId } = await prisma.$transaction(async (tx) => {
    const variant = await lockPost(tx, userId, id, "variant");
    if (input.expected_content_hash !== undefined && input.expected_content_hash !== variant.contentHash) {
      throw new ApiError("edit_conflict", `The variant changed since you read it (its content_hash is now ${variant.contentHash}).`);
    }
    let snapshot: SourceSnapshot = {
      sourceTitle: variant.sourceTitle ?? "",
      sourceBody: variant.sourceBody ?? "",
      sourceHash: variant.sourceHash ?? "",
      sourceVersion: variant.sourceVersion ?? 0,
    };
    if (input.source === "master") {
      snapshot = snapshotOf(await getPostById(tx, variant.masterId!));
    }
    await tx.generationTask.updateMany({
      where: { variantId: variant.id, state: { in: ["queued", "running"] } },
      data: { state: "superseded", finishedAt: new Date() },
    });
    const task = await createGenerationTask(tx, { userId, variant, snapshot });
    return { item: (await loadItem(tx, userId, id))!, taskId: task.id };
  }, TRANSACTION_OPTIONS);
  await enqueueGeneration([taskId]);
  return { item, task_id: taskId };
}
