import type { Post, Prisma } from "@/lib/db/generated/client.ts";
import type { Db } from "@/lib/db/types.ts";
import { client } from "@/lib/posts/store/owned-post.ts";

// Writes of the posts' table. A caller inside a transaction passes it (`tx`).

/** A new post (a master, or a variant of one). */
export async function createPost(data: Prisma.PostUncheckedCreateInput, tx?: Db): Promise<Post> {
  return (await client(tx)).post.create({ data });
}

/** Changes one post, by id (the caller has locked or read it as the person's). */
export async function updatePost(tx: Db, id: string, data: Prisma.PostUncheckedUpdateInput): Promise<void> {
  await tx.post.update({ where: { id }, data });
}

/**
 * Deletes the person's posts, or only those made from the note `sourceNoteId` (their variants,
 * generation tasks and deliveries cascade from a master).
 */
export async function deletePosts({ userId, sourceNoteId, tx }: { userId: string; sourceNoteId?: string; tx: Db }): Promise<void> {
  await tx.post.deleteMany({ where: { userId, ...(sourceNoteId !== undefined && { sourceTranscriptionId: sourceNoteId }) } });
}
