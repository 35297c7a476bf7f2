import { db } from "@/lib/db/client.ts";
import { findOwnEndpoint } from "@/lib/webhooks/endpoints/own-endpoint.ts";
import { presentWebhook } from "@/lib/webhooks/endpoints/present-webhook.ts";
import type { UpdateWebhookInput, Webhook } from "@/lib/webhooks/schemas.ts";
import { assertWebhookUrlAllowed } from "@/lib/webhooks/url-guard.ts";

export async function updateWebhook({ userId, id, input }: { userId: string; id: string; input: UpdateWebhookInput }): Promise<Webhook> {
  const current = await findOwnEndpoint({ userId, id });
  if (input.url !== undefined) await assertWebhookUrlAllowed(input.url);
  // Enabling (again) starts afresh: the reason it was disabled and its run of failures are cleared.
  const enabling = input.enabled === true && !current.enabled;
  const prisma = await db();
  const row = await prisma.webhookEndpoint.update({
    where: { id: current.id },
    data: {
      ...input,
      ...(enabling && { disabledReason: null, disabledAt: null, failingSince: null }),
    },
  });
  return presentWebhook(row);
}
