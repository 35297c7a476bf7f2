import { db } from "@/lib/db/client.ts";
import { EmailSchema } from "@/lib/accounts/schemas.ts";
import { hashPassword, verifyPassword } from "@/lib/accounts/passwords.ts";
import { beginSignIn } from "@/lib/rate-limit/sign-in-backoff.ts";

type SignedIn = { id: string; email: string; name: string | null };

// Verifying against a fixed hash when the email is unknown keeps both answers equally slow, so
// the sign-in form does not reveal which emails have accounts.
let decoyHash: Promise<string> | undefined;

async function checkPassword(email: string, password: string): Promise<SignedIn | null> {
  const prisma = await db();
  const user = await prisma.user.findUnique({
    where: { email },
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

/**
 * The user for an email and password, or null; never says which of the two was wrong. Throws 429
 * rate_limited (with Retry-After) while the account or the address backs off after failures.
 */
export async function verifyCredentials(
  input: { email?: unknown; password?: unknown },
  { ip = "unknown" }: { ip?: string } = {},
): Promise<SignedIn | null> {
  const email = EmailSchema.safeParse(input.email);
  const password = typeof input.password === "string" && input.password.length <= 256 ? input.password : null;
  if (!email.success || !password) return null;
  const attempt = await beginSignIn({ email: email.data, ip });
  let user: SignedIn | null;
  try {
    user = await checkPassword(email.data, password);
  } catch (err) {
    await attempt.cancel();
    throw err;
  }
  await (user ? attempt.succeeded() : attempt.failed());
  return user;
}
