import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import type { Db } from "@/lib/db/types.ts";
import { isUniqueViolation } from "@/lib/db/unique-violation.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { validationError } from "@/lib/http/parse.ts";
import { log } from "@/lib/log.ts";
import { hashPassword } from "@/lib/accounts/passwords.ts";
import { CreateUserInput } from "@/lib/accounts/schemas.ts";

export type UserSummary = { id: string; email: string; name: string | null; createdAt: Date; isOwner: boolean };

/**
 * Lets one more account in, inside the transaction that makes it, or throws (403): the sign-up
 * policy. Returns what to mark as used by the new account (an invitation).
 */
export type Admission = (tx: Db) => Promise<{ invitationId?: string }>;

/**
 * Creates an account. The first one on the install becomes its owner, whoever makes it (the
 * sign-up page or the admin CLI); any other is let in by `admit` (the sign-up policy) in the same
 * transaction, so an invitation is used exactly when its account is made. Two first accounts at
 * once: the owner index (one owner at most) refuses one, which is then made as any other account.
 */
export async function createUser({ input, admit }: { input: CreateUserInput; admit?: Admission }): Promise<UserSummary> {
  const parsed = CreateUserInput.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error);
  const { email, password, name } = parsed.data;
  const passwordHash = await hashPassword(password);
  const prisma = await db();
  const make = (mayOwn: boolean) =>
    prisma.$transaction(async (tx) => {
      const first = mayOwn && !(await tx.user.findFirst({ select: { id: true } }));
      const { invitationId } = first || !admit ? {} : await admit(tx);
      const user = await tx.user.create({
        data: { email, name, passwordHash, isOwner: first },
        select: { id: true, email: true, name: true, createdAt: true, isOwner: true },
      });
      if (invitationId) await tx.invitation.update({ where: { id: invitationId }, data: { usedById: user.id } });
      return user;
    }, TRANSACTION_OPTIONS);
  let user: UserSummary;
  try {
    user = await make(true);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    if (await prisma.user.findUnique({ where: { email }, select: { id: true } })) throw emailTaken(email);
    // Not the email: another first account became the owner meanwhile.
    user = await make(false).catch((again: unknown) => {
      throw isUniqueViolation(again) ? emailTaken(email) : again;
    });
  }
  if (user.isOwner) log.info("this install's owner was made", { user_id: user.id, email: user.email });
  else log.info("account created", { user_id: user.id });
  return user;
}

const emailTaken = (email: string) => new ApiError("email_taken", `An account with the email ${email} already exists.`);
