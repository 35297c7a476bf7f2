import { db } from "@/lib/db/client.ts";
import { SNAPSHOT } from "@/lib/db/transaction.ts";
import type { Db } from "@/lib/db/types.ts";
import { notFound } from "@/lib/http/errors.ts";
import { findOwnedPost, getPostById } from "@/lib/posts/store/owned-post.ts";
import { listVariants } from "@/lib/posts/store/post-lists.ts";
import { latestTasks } from "@/lib/posts/items/load-item.ts";
import { presentItem } from "@/lib/posts/items/present-item.ts";
import { sourceNoteStates } from "@/lib/posts/items/source-note.ts";
import { toDelivery, type ContentFamily } from "@/lib/posts/schemas.ts";

/** The master and its variants (with generation, approval and freshness), from any member's id. */
export async function getFamily({ userId, id }: { userId: string; id: string }): Promise<ContentFamily> {
  // One snapshot: a generation that finishes between the reads must not show "succeeded" next to
  // the variant's old title, body and content_hash.
  return (await db()).$transaction((tx) => readFamily(tx, userId, id), SNAPSHOT);
}

async function readFamily(prisma: Db, userId: string, id: string): Promise<ContentFamily> {
  const item = await findOwnedPost({ userId, id, tx: prisma });
  if (!item) throw notFound(`The content item ${id}`);
  const masterId = item.kind === "variant" && item.masterId ? item.masterId : item.id;
  const master = item.id === masterId ? item : await getPostById(prisma, masterId);
  const variants = await listVariants({ userId, masterId, tx: prisma });
  const tasks = await latestTasks(
    prisma,
    variants.map((v) => v.id),
  );
  const deliveries = await prisma.contentDelivery.findMany({
    where: { userId, itemId: { in: [masterId, ...variants.map((v) => v.id)] } },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
  });
  return {
    master: presentItem(master, { note: (await sourceNoteStates(prisma, userId, [master])).get(master.id) }),
    variants: variants.map((v) => presentItem(v, { master, task: tasks.get(v.id) })),
    deliveries: deliveries.map(toDelivery),
  };
}
