import { db } from "@/lib/db/client.ts";
import { isUniqueViolation } from "@/lib/db/unique-violation.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { validationError } from "@/lib/http/parse.ts";
import { hashPassword } from "@/lib/accounts/passwords.ts";
import { CreateUserInput } from "@/lib/accounts/schemas.ts";

export type UserSummary = { id: string; email: string; name: string | null; createdAt: Date };

export async function createUser({ input }: { input: CreateUserInput }): Promise<UserSummary> {
  const parsed = CreateUserInput.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error);
  const { email, password, name } = parsed.data;
  const prisma = await db();
  try {
    return await prisma.user.create({
      data: { email, name, passwordHash: await hashPassword(password) },
      select: { id: true, email: true, name: true, createdAt: true },
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new ApiError("email_taken", `An account with the email ${email} already exists.`);
    }
    throw err;
  }
}
