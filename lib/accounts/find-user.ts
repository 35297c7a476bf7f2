import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { EmailSchema } from "@/lib/accounts/schemas.ts";

export async function findUserByEmail(email: string): Promise<{ id: string; email: string }> {
  const normalized = EmailSchema.safeParse(email);
  const prisma = await db();
  const user = normalized.success
    ? await prisma.user.findUnique({ where: { email: normalized.data }, select: { id: true, email: true } })
    : null;
  if (!user) throw notFound(`The user ${email}`);
  return user;
}
