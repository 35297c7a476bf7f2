import { db } from "@/lib/db/client.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { errorFields, log } from "@/lib/log.ts";
import { webhookEventJobSpec } from "@/lib/webhooks/events/event-job.ts";
import { listenersOf } from "@/lib/webhooks/events/listeners.ts";
import type { WebhookEventType } from "@/lib/webhooks/schemas.ts";

/**
 * Tells the person's webhooks that something happened, where it happened. Costs one indexed
 * query when nobody listens, else one queued job (the event job builds and sends the rest).
 * Never throws: a webhook must not fail or undo the request or job that emits it.
 */
export async function emitWebhookEvent(event: {
  userId: string;
  type: WebhookEventType;
  /** The id of what the event is about (a note, a variant, a delivery…). */
  subjectId: string | null;
  /** transcription.failed: the error code. */
  detail?: string;
}): Promise<void> {
  try {
    const prisma = await db();
    if (!(await prisma.webhookEndpoint.count({ where: listenersOf(event) }))) return;
    // Field by field: the payload is a strict object, and a caller's spread of more (a variantId)
    // made every content.variants.generated fail its check, so it was never queued.
    const { userId, type, subjectId, detail = null } = event;
    await enqueueJob(webhookEventJobSpec, { userId, type, subjectId, detail, occurredAt: new Date().toISOString() });
  } catch (err) {
    log.warn("webhook event not queued", { type: event.type, ...errorFields(err) });
  }
}
