import { db } from "@/lib/db/client.ts";
import { loadItem, presentItem } from "@/lib/content/present-item.ts";
import { notFound } from "@/lib/http/errors.ts";
import type { ContentItem } from "@/lib/content/schemas.ts";

const DEFAULT_LIMIT = 50;

/** The user's masters, newest first (ids are time-ordered UUIDv7), paged by the last id. */
export async function listMasters({ userId, input }: { userId: string; input: { limit?: number; cursor?: string } }) {
  const prisma = await db();
  const limit = input.limit ?? DEFAULT_LIMIT;
  const rows = await prisma.contentItem.findMany({
    where: { userId, kind: "master", ...(input.cursor && { id: { lt: input.cursor } }) },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return { items: page.map((row) => presentItem(row)), next_cursor: rows.length > limit ? page[page.length - 1].id : null };
}

/** One of the user's items, a master or a variant. */
export async function getItem({ userId, id }: { userId: string; id: string }): Promise<ContentItem> {
  // One snapshot of the item and its generation task (see getFamily).
  const item = await (await db()).$transaction((tx) => loadItem(tx, userId, id), { isolationLevel: "RepeatableRead" });
  if (!item) throw notFound(`The content item ${id}`);
  return item;
}
