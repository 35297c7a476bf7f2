import { db } from "@/lib/db/client.ts";
import { SNAPSHOT } from "@/lib/db/transaction.ts";
import { notFound } from "@/lib/http/errors.ts";
import { loadItem } from "@/lib/posts/items/load-item.ts";
import type { ContentItem } from "@/lib/posts/schemas.ts";

/** One of the user's items, a master or a variant. */
export async function getItem({ userId, id }: { userId: string; id: string }): Promise<ContentItem> {
  // One snapshot of the item and its generation task (see getFamily).
  const item = await (await db()).$transaction((tx) => loadItem(tx, userId, id), SNAPSHOT);
  if (!item) throw notFound(`The content item ${id}`);
  return item;
}
