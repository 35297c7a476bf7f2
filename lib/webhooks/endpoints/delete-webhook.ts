import { db } from "@/lib/db/client.ts";
import { findOwnEndpoint, ownEndpoint } from "@/lib/webhooks/endpoints/own-endpoint.ts";
import { presentWebhook } from "@/lib/webhooks/endpoints/present-webhook.ts";
import type { Webhook } from "@/lib/webhooks/schemas.ts";

/** Deletes one of the person's endpoints with its delivery log; answers it as it was. */
export async function deleteWebhook({ userId, id }: { userId: string; id: string }): Promise<Webhook> {
  const row = await findOwnEndpoint({ userId, id });
  const prisma = await db();
  await prisma.webhookEndpoint.deleteMany({ where: ownEndpoint(userId, id) });
  return presentWebhook(row);
}
