import type { Post, Prisma } from "@/lib/db/generated/client.ts";
import type { Db } from "@/lib/db/types.ts";
import { client } from "@/lib/posts/store/owned-post.ts";

// Reads of many posts: a master's variants, the list of masters, the posts made from a note, the
// export's batches, and whether a channel or preset is used.

type Picked<S extends Prisma.PostSelect> = Prisma.PostGetPayload<{ select: S }>;

/** The person's variants of a master, oldest first. */
export async function listVariants({ userId, masterId, tx }: { userId: string; masterId: string; tx?: Db }): Promise<Post[]> {
  return (await client(tx)).post.findMany({ where: { masterId, userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** The variant a master already has for a channel and preset; null when none. */
export async function findVariant(tx: Db, target: { masterId: string; channelId: string; presetId: string }): Promise<Post | null> {
  return tx.post.findFirst({ where: target });
}

/** A page of the person's masters, newest first (those made from `sourceNoteId` only, when given; ids below `beforeId`). */
export async function findMasters({ userId, sourceNoteId, beforeId, take }: { userId: string; sourceNoteId?: string; beforeId?: string; take?: number }): Promise<Post[]> {
  return (await client()).post.findMany({
    where: {
      userId,
      kind: "master",
      ...(sourceNoteId && { sourceTranscriptionId: sourceNoteId }),
      ...(beforeId && { id: { lt: beforeId } }),
    },
    orderBy: { id: "desc" },
    take,
  });
}

/** The person's variants of a master with what deciding to write them again needs, oldest first. */
export async function listVariantApprovals({ userId, masterId }: { userId: string; masterId: string }) {
  return (await client()).post.findMany({
    where: { userId, kind: "variant", masterId },
    orderBy: { createdAt: "asc" },
    select: { id: true, contentHash: true, approvedHash: true },
  });
}

/**
 * The masters copied from one of the person's notes (with the note's text hash), each with its
 * variants and the text last written for each.
 */
export async function listMastersOfNote({ userId, noteId }: { userId: string; noteId: string }) {
  return (await client()).post.findMany({
    where: { userId, kind: "master", sourceTranscriptionId: noteId, sourceNoteHash: { not: null } },
    include: {
      variants: {
        select: {
          id: true,
          title: true,
          body: true,
          contentHash: true,
          approvedHash: true,
          generationTasks: { where: { state: "succeeded" }, orderBy: { createdAt: "desc" }, take: 1, select: { resultTitle: true, resultBody: true } },
        },
      },
    },
  });
}

/** The person's posts in id order (uuid v7: creation order), `take` after the post `after`. */
export async function postsInIdOrder<S extends Prisma.PostSelect>(
  { userId, after, take }: { userId: string; after?: string; take: number },
  select: S,
): Promise<Picked<S>[]> {
  const prisma = await client();
  return prisma.post.findMany({ where: { userId }, take, orderBy: { id: "asc" }, ...(after && { cursor: { id: after }, skip: 1 }), select }) as Promise<Picked<S>[]>;
}

/** How many posts were written for a channel or with a preset. */
export async function countPosts(tx: Db, where: { channelId: string } | { presetId: string }): Promise<number> {
  return tx.post.count({ where });
}
