import type { WebhookAttempt, WebhookDelivery as DeliveryRow } from "@/lib/db/generated/client.ts";
import type { WebhookDelivery } from "@/lib/webhooks/schemas.ts";

/** What to read with a delivery: its attempts, oldest first. */
export const withAttempts = { attempts: { orderBy: [{ attemptedAt: "asc" as const }, { id: "asc" as const }] } };

/** A delivery as the API shows it, with every attempt. */
export function presentDelivery(row: DeliveryRow & { attempts: WebhookAttempt[] }): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.eventId,
    type: row.type,
    status: row.status as WebhookDelivery["status"],
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    attempts: row.attempts.map((a) => ({
      attempted_at: a.attemptedAt.toISOString(),
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
      response_excerpt: a.responseExcerpt,
    })),
  };
}
