import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { forgetKnownApiKeys } from "@/lib/api-keys/authenticate-api-key.ts";
import { API_KEY_SUMMARY_SELECT, type ApiKeySummary } from "@/lib/api-keys/schemas.ts";

/** Revokes one of the user's keys, by id or by its display prefix. Revoking twice keeps the first time. */
export async function revokeApiKey({ userId, input }: { userId: string; input: { id: string } }): Promise<ApiKeySummary> {
  const prisma = await db();
  const key = await prisma.apiKey.findFirst({
    where: { userId, OR: [{ id: input.id }, { prefix: input.id }] },
    select: { id: true, revokedAt: true },
  });
  if (!key) throw notFound(`The API key ${input.id}`);
  const revoked = await prisma.apiKey.update({
    where: { id: key.id },
    data: { revokedAt: key.revokedAt ?? new Date() },
    select: API_KEY_SUMMARY_SELECT,
  });
  forgetKnownApiKeys();
  return revoked;
}
