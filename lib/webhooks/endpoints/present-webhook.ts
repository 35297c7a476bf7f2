import type { WebhookEndpoint } from "@/lib/db/generated/client.ts";
import { previousSecretExpiry } from "@/lib/webhooks/endpoints/webhook-secrets.ts";
import type { Webhook, WebhookEventType } from "@/lib/webhooks/schemas.ts";

/** An endpoint as the API shows it: never its secrets, only until when the previous one still signs. */
export function presentWebhook(row: WebhookEndpoint): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    previous_secret_expires_at: previousSecretExpiry(row)?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
