import { notFound } from "@/lib/http/errors.ts";
import type { Db } from "@/lib/db/types.ts";

/**
 * Locks one of the user's items for the rest of the transaction and returns it. Another user's
 * id, a missing one, or one of the wrong kind is a 404 — indistinguishable on purpose.
 */
export async function lockItem(tx: Db, userId: string, id: string, kind?: "master" | "variant") {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "content_items" WHERE "id" = ${id} AND "user_id" = ${userId} FOR UPDATE`;
  const row = locked.length ? await tx.post.findUnique({ where: { id } }) : null;
  if (!row || (kind && row.kind !== kind)) throw notFound(`The ${kind ?? "content item"} ${id}`);
  return row;
}
