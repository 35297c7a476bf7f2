import { db } from "@/lib/db/client.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { presentWebhook } from "@/lib/webhooks/endpoints/present-webhook.ts";
import { newWebhookSecret } from "@/lib/webhooks/endpoints/webhook-secrets.ts";
import { WEBHOOKS_MAX, type CreateWebhookInput, type Webhook } from "@/lib/webhooks/schemas.ts";
import { assertWebhookUrlAllowed } from "@/lib/webhooks/url-guard.ts";

/** A new endpoint of the person's, with its secret (shown in this answer only). */
export async function createWebhook({ userId, input }: { userId: string; input: CreateWebhookInput }): Promise<{ webhook: Webhook; secret: string }> {
  await assertWebhookUrlAllowed(input.url);
  const prisma = await db();
  const secret = newWebhookSecret();
  const row = await prisma.$transaction(async (tx) => {
    // One at a time per person, so two creates at the limit cannot both pass the count.
    await tx.$executeRaw`SELECT 1 FROM "users" WHERE "id" = ${userId} FOR UPDATE`;
    if ((await tx.webhookEndpoint.count({ where: { userId } })) >= WEBHOOKS_MAX) {
      throw new ApiError("webhook_limit_reached", `You have ${WEBHOOKS_MAX} webhooks, the most there can be; delete one first.`);
    }
    return tx.webhookEndpoint.create({ data: { userId, url: input.url, events: input.events, description: input.description ?? "", secret } });
  });
  return { webhook: presentWebhook(row), secret };
}
