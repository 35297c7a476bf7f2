import type { Db } from "@/lib/db/types.ts";
import type { GenerationTask } from "@/lib/db/generated/client.ts";
import { findOwnedPost, getPostById } from "@/lib/posts/store/owned-post.ts";
import { presentItem } from "@/lib/posts/items/present-item.ts";
import { sourceNoteStates } from "@/lib/posts/items/source-note.ts";
import type { ContentItem } from "@/lib/posts/schemas.ts";

/** The latest generation task of each variant. */
export async function latestTasks(prisma: Db, variantIds: string[]): Promise<Map<string, GenerationTask>> {
  const tasks = await prisma.generationTask.findMany({
    where: { variantId: { in: variantIds } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    distinct: ["variantId"],
  });
  return new Map(tasks.map((t) => [t.variantId, t]));
}

/** One of the user's items with what its view needs; null when missing or someone else's. */
export async function loadItem(prisma: Db, userId: string, id: string): Promise<ContentItem | null> {
  const row = await findOwnedPost({ userId, id, tx: prisma });
  if (!row) return null;
  if (row.kind !== "variant" || !row.masterId) return presentItem(row, { note: (await sourceNoteStates(prisma, userId, [row])).get(row.id) });
  const master = await getPostById(prisma, row.masterId);
  const tasks = await latestTasks(prisma, [row.id]);
  return presentItem(row, { master, task: tasks.get(row.id) });
}
