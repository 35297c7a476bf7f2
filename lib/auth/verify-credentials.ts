import { db } from "@/lib/db/client.ts";
import { EmailSchema } from "@/lib/accounts/schemas.ts";
import { hashPassword, verifyPassword } from "@/lib/accounts/passwords.ts";

// Verifying against a fixed hash when the email is unknown keeps both answers equally slow, so
// the sign-in form does not reveal which emails have accounts.
let decoyHash: Promise<string> | undefined;

/** The user for an email and password, or null; never says which of the two was wrong. */
export async function verifyCredentials(input: { email?: unknown; password?: unknown }): Promise<{ id: string; email: string; name: string | null } | null> {
  const email = EmailSchema.safeParse(input.email);
  const password = typeof input.password === "string" && input.password.length <= 256 ? input.password : null;
  if (!email.success || !password) return null;
  const prisma = await db();
  const user = await prisma.user.findUnique({
    where: { email: email.data },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
  if (!user?.passwordHash) {
    decoyHash ??= hashPassword("decoy password, never valid");
    await verifyPassword(await decoyHash, password);
    return null;
  }
  if (!(await verifyPassword(user.passwordHash, password))) return null;
  return { id: user.id, email: user.email, name: user.name };
}
