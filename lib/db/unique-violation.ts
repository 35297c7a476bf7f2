import { Prisma } from "@/lib/db/generated/client.ts";

/** A write refused by a unique index (Prisma's P2002, or the driver's message when it is not wrapped). */
export const isUniqueViolation = (err: unknown): boolean =>
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
