import { Prisma } from "@/lib/db/generated/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import type { Db } from "@/lib/content/present-item.ts";

// Writes to one family queue behind each other (row locks); give a burst time rather than failing.
export const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 15_000 };

/**
 * Locks one of the user's items for the rest of the transaction and returns it. Another user's
 * id, a missing one, or one of the wrong kind is a 404 — indistinguishable on purpose.
 */
export async function lockItem(tx: Db, userId: string, id: string, kind?: "master" | "variant") {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "content_items" WHERE "id" = ${id} AND "user_id" = ${userId} FOR UPDATE`;
  const row = locked.length ? await tx.contentItem.findUnique({ where: { id } }) : null;
  if (!row || (kind && row.kind !== kind)) throw notFound(`The ${kind ?? "content item"} ${id}`);
  return row;
}

const isUniqueViolation = (err: unknown) =>
  err instanceof Prisma.PrismaClientKnownRequestError
    ? err.code === "P2002"
    : /unique constraint|duplicate key/i.test((err as Error)?.message ?? "");

/**
 * Runs an idempotent write; when a concurrent twin won the race to a unique key, runs it once
 * more, and this time it finds the twin's row and replays (or refuses) it.
 */
export async function retryOnUniqueViolation<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return write();
  }
}
