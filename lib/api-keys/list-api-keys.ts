import { db } from "@/lib/db/client.ts";
import { API_KEY_SUMMARY_SELECT, type ApiKeySummary } from "@/lib/api-keys/schemas.ts";

export async function listApiKeys({ userId }: { userId: string }): Promise<ApiKeySummary[]> {
  const prisma = await db();
  return prisma.apiKey.findMany({ where: { userId }, orderBy: { createdAt: "asc" }, select: API_KEY_SUMMARY_SELECT });
}
