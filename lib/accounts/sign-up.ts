import { createUser, type UserSummary } from "@/lib/accounts/create-user.ts";
import type { CreateUserInput } from "@/lib/accounts/schemas.ts";
import { limitSignUp } from "@/lib/rate-limit/sign-up-limit.ts";

/** Sign-up from the web app: limited per address (429 rate_limited), then the account is created. */
export async function signUp({ input, ip }: { input: CreateUserInput; ip: string }): Promise<UserSummary> {
  await limitSignUp(ip);
  return createUser({ input });
}
