import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { contentHash } from "@/lib/posts/items/content-hash.ts";
import { loadItem } from "@/lib/posts/items/load-item.ts";
import { afterContentChange } from "@/lib/posts/items/states.ts";
import { lockPost } from "@/lib/posts/store/owned-post.ts";
import { updatePost } from "@/lib/posts/store/post-writes.ts";
import type { ContentItem, EditItemInput } from "@/lib/posts/schemas.ts";

/**
 * Changes the title and/or body of a master or variant, if it still has the content_hash the
 * client last read (else 409 edit_conflict). A real change bumps the version and clears any
 * approval; a master's change makes its variants stale.
 */
export async function editItem({ userId, id, input }: { userId: string; id: string; input: EditItemInput }): Promise<ContentItem> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const row = await lockPost(tx, userId, id);
    if (row.contentHash !== input.expected_content_hash) {
      throw new ApiError(
        "edit_conflict",
        `The item changed since you read it (its content_hash is now ${row.contentHash}); read it again and reapply your edit.`,
      );
    }
    const title = input.title ?? row.title;
    const body = input.body ?? row.body;
    const hash = contentHash(title, body);
    if (hash !== row.contentHash) {
      await updatePost(tx, id, { title, body, ...afterContentChange(row, hash) });
    }
    return (await loadItem(tx, userId, id))!;
  }, TRANSACTION_OPTIONS);
}
