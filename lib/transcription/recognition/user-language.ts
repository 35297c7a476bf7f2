import { db } from "@/lib/db/client.ts";

/** The language a recording is recognized in when its upload names none: the person's setting (Settings), or undefined to detect it. */
export async function userLanguage(userId: string): Promise<string | undefined> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { language: true } });
  return user?.language ?? undefined;
}
