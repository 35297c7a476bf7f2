import { findOwnEndpoint } from "@/lib/webhooks/endpoints/own-endpoint.ts";
import { presentWebhook } from "@/lib/webhooks/endpoints/present-webhook.ts";
import type { Webhook } from "@/lib/webhooks/schemas.ts";

export async function getWebhook({ userId, id }: { userId: string; id: string }): Promise<Webhook> {
  return presentWebhook(await findOwnEndpoint({ userId, id }));
}
