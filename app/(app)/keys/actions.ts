"use server";

import { revalidatePath } from "next/cache";
import { requireUser } from "@/lib/auth/current-user.ts";
import { createApiKey } from "@/lib/api-keys/create-api-key.ts";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key.ts";
import type { Scope } from "@/lib/api-keys/scopes.ts";
import { ApiError } from "@/lib/http/errors.ts";
import type { CreateKeyResult } from "@/lib/api-keys/schemas.ts";


export async function createKeyAction(input: { name: string; scopes: Scope[] }): Promise<CreateKeyResult> {
  const user = await requireUser();
  try {
    const { key, apiKey } = await createApiKey({ userId: user.id, input: { name: input.name, scopes: input.scopes } });
    revalidatePath("/keys");
    return { ok: true, key, name: apiKey.name };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, message: err.options.details?.map((d) => `${d.path}: ${d.message}`).join("; ") || err.message };
    throw err;
  }
}

export async function revokeKeyAction(id: string): Promise<void> {
  const user = await requireUser();
  await revokeApiKey({ userId: user.id, input: { id } });
  revalidatePath("/keys");
}
