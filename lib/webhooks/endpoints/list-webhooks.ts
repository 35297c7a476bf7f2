import { db } from "@/lib/db/client.ts";
import { presentWebhook } from "@/lib/webhooks/endpoints/present-webhook.ts";
import type { Webhook } from "@/lib/webhooks/schemas.ts";

/** The person's endpoints, oldest first. */
export async function listWebhooks({ userId }: { userId: string }): Promise<Webhook[]> {
  const prisma = await db();
  const rows = await prisma.webhookEndpoint.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(presentWebhook);
}
