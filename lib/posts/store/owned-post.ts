import { db } from "@/lib/db/client.ts";
import type { Post } from "@/lib/db/generated/client.ts";
import type { Db } from "@/lib/db/types.ts";
import { notFound } from "@/lib/http/errors.ts";

// The post's store (lib/posts/store): every query and write of the posts' table (content_items)
// goes through these files, and no other file names the table (tests/unit/layering.test.ts).
// Ownership is in the query (`where: { id, userId }`) wherever a person names a post.

/** Which post: one of this person's, read in `tx` when given. */
export type PostKey = { userId: string; id: string; tx?: Db };

export const client = async (tx?: Db): Promise<Db> => tx ?? (await db());

/** The person's post; null when they have no such post. */
export async function findOwnedPost({ userId, id, tx }: PostKey): Promise<Post | null> {
  return (await client(tx)).post.findFirst({ where: { id, userId } });
}

/** A post by its id alone, one another of the person's points to (a variant's master); throws when missing. */
export async function getPostById(tx: Db, id: string): Promise<Post> {
  return tx.post.findUniqueOrThrow({ where: { id } });
}

/**
 * Locks one of the user's posts for the rest of the transaction and returns it. Another user's
 * id, a missing one, or one of the wrong kind is a 404 — indistinguishable on purpose.
 */
export async function lockPost(tx: Db, userId: string, id: string, kind?: "master" | "variant"): Promise<Post> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "content_items" WHERE "id" = ${id} AND "user_id" = ${userId} FOR UPDATE`;
  const row = locked.length ? await tx.post.findUnique({ where: { id } }) : null;
  if (!row || (kind && row.kind !== kind)) throw notFound(`The ${kind ?? "content item"} ${id}`);
  return row;
}

/** Locks a variant (by id: its generation task names it) for the rest of the transaction; its version. */
export async function lockPostVersion(tx: Db, id: string): Promise<number> {
  const locked = await tx.$queryRaw<{ version: number }[]>`
    SELECT "version" FROM "content_items" WHERE "id" = ${id} FOR UPDATE`;
  return locked[0].version;
}
