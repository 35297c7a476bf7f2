import type { Prisma } from "@/lib/db/generated/client.ts";
import type { WebhookEventType } from "@/lib/webhooks/schemas.ts";

/** The query of the endpoints an event is sent to: the person's, enabled, listening to its type. */
export function listenersOf({ userId, type }: { userId: string; type: WebhookEventType }): Prisma.WebhookEndpointWhereInput {
  return { userId, enabled: true, events: { has: type } };
}
