import { db } from "@/lib/db/client.ts";
import { findOwnEndpoint } from "@/lib/webhooks/endpoints/own-endpoint.ts";
import { presentWebhook } from "@/lib/webhooks/endpoints/present-webhook.ts";
import { newWebhookSecret } from "@/lib/webhooks/endpoints/webhook-secrets.ts";
import { PREVIOUS_SECRET_HOURS, type Webhook } from "@/lib/webhooks/schemas.ts";

/** A new secret (shown in this answer only); the current one keeps signing beside it for PREVIOUS_SECRET_HOURS. */
export async function rotateWebhookSecret({ userId, id }: { userId: string; id: string }): Promise<{ webhook: Webhook; secret: string }> {
  const current = await findOwnEndpoint({ userId, id });
  const secret = newWebhookSecret();
  const prisma = await db();
  const row = await prisma.webhookEndpoint.update({
    where: { id: current.id },
    data: { secret, previousSecret: current.secret, previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_HOURS * 3600_000) },
  });
  return { webhook: presentWebhook(row), secret };
}
