import { db } from "@/lib/db/client.ts";

/** The install's owner (its first account), or null on a new install. */
export async function findOwner(): Promise<{ id: string; email: string; createdAt: Date } | null> {
  const prisma = await db();
  return prisma.user.findFirst({ where: { isOwner: true }, select: { id: true, email: true, createdAt: true } });
}

/** Whether anyone may still make the first account (the owner's). */
export async function isNewInstall(): Promise<boolean> {
  const prisma = await db();
  return !(await prisma.user.findFirst({ select: { id: true } }));
}
