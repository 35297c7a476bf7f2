import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { latestTasks, loadItem } from "@/lib/posts/items/load-item.ts";
import { approve } from "@/lib/posts/items/states.ts";
import { lockPost } from "@/lib/posts/store/owned-post.ts";
import { updatePost } from "@/lib/posts/store/post-writes.ts";
import type { ApproveInput, ContentItem } from "@/lib/posts/schemas.ts";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event.ts";

/** Approves exactly the title and body whose content_hash is given (409 if it is not the current one). */
export async function approveVariant({ userId, id, input }: { userId: string; id: string; input: ApproveInput }): Promise<ContentItem> {
  const prisma = await db();
  let approved = false;
  const item = await prisma.$transaction(async (tx) => {
    const variant = await lockPost(tx, userId, id, "variant");
    const task = (await latestTasks(tx, [id])).get(id);
    const approval = approve({ contentHash: variant.contentHash, generationState: task?.state ?? null }, input.content_hash);
    if (variant.approvedHash !== approval.approvedHash) {
      await updatePost(tx, id, approval);
      approved = true;
    }
    return (await loadItem(tx, userId, id))!;
  }, TRANSACTION_OPTIONS);
  // After the commit, and only when this call approved it (approving again changes nothing).
  if (approved) await emitWebhookEvent({ userId, type: "content.variant.approved", subjectId: id });
  return item;
}
