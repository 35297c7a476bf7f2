import { admitSignUp } from "@/lib/accounts/admit-sign-up.ts";
import { createUser, type UserSummary } from "@/lib/accounts/create-user.ts";
import type { CreateUserInput } from "@/lib/accounts/schemas.ts";
import { limitSignUp } from "@/lib/rate-limit/sign-up-limit.ts";

/**
 * Sign-up from the web app: limited per address (429 rate_limited), then the account is made: the
 * first on the install as its owner, any other as SIGNUP allows (403 invitation_required,
 * invitation_invalid, sign_up_closed).
 */
export async function signUp({ input, ip, invitation }: { input: CreateUserInput; ip: string; invitation?: string }): Promise<UserSummary> {
  await limitSignUp(ip);
  return createUser({ input, admit: admitSignUp(invitation) });
}
