import { db } from "@/lib/db/client.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { validationError } from "@/lib/http/parse.ts";
import { generateApiKey } from "@/lib/api-keys/key-format.ts";
import { API_KEY_SUMMARY_SELECT, CreateApiKeyInput, type ApiKeySummary } from "@/lib/api-keys/schemas.ts";

/** Creates a key; the returned `key` is the only time the secret exists outside its owner's hands. */
export async function createApiKey({ userId, input }: { userId: string; input: CreateApiKeyInput }): Promise<{
  key: string;
  apiKey: ApiKeySummary;
}> {
  const parsed = CreateApiKeyInput.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error);
  const { name, scopes, expiresAt } = parsed.data;
  if (expiresAt && expiresAt <= new Date()) {
    throw new ApiError("validation_failed", "The expiry must be in the future.", {
      details: [{ path: "expiresAt", message: "must be in the future" }],
    });
  }
  const { key, prefix, hash } = generateApiKey();
  const prisma = await db();
  const apiKey = await prisma.apiKey.create({
    data: { userId, name, prefix, hash, scopes: [...new Set(scopes)], expiresAt },
    select: API_KEY_SUMMARY_SELECT,
  });
  return { key, apiKey };
}
