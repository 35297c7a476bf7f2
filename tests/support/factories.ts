import { randomBytes } from "node:crypto";
import { createUser } from "@/lib/accounts/create-user.ts";
import { createApiKey } from "@/lib/api-keys/create-api-key.ts";
import { SCOPES, type Scope } from "@/lib/api-keys/scopes.ts";

export type TestUser = { id: string; email: string; key: string };

/** A new user with one API key (all scopes unless given). */
export async function createTestUser(options: { scopes?: Scope[] } = {}): Promise<TestUser> {
  const email = `user-${randomBytes(6).toString("hex")}@example.test`;
  const user = await createUser({ input: { email, password: "correct horse battery staple" } });
  const { key } = await createApiKey({ userId: user.id, input: { name: "test", scopes: options.scopes ?? [...SCOPES] } });
  return { id: user.id, email, key };
}
