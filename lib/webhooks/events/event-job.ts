import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { defineJob, type JobDefinition, type JobSpec } from "@/lib/jobs/define-job.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { webhookDeliveryJob } from "@/lib/webhooks/deliveries/delivery-job.ts";
import { eventEnvelope } from "@/lib/webhooks/deliveries/event-envelope.ts";
import { eventData, type EventSources } from "@/lib/webhooks/events/event-data.ts";
import { listenersOf } from "@/lib/webhooks/events/listeners.ts";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/schemas.ts";

/** The event job as queued (emitWebhookEvent): ids only; the job reads the rest when it runs. */
export const webhookEventJobSpec = {
  name: "webhook-event",
  payload: z.strictObject({
    userId: z.string().min(1),
    type: z.enum(WEBHOOK_EVENT_TYPES),
    subjectId: z.string().min(1).nullable(),
    /** transcription.failed: the error code. */
    detail: z.string().max(64).nullable(),
    occurredAt: z.iso.datetime(),
  }),
} satisfies JobSpec;

/**
 * One event → one delivery per listening endpoint, each sent by its own delivery job. `sources`
 * read what events are about; they are the domains' own reads, given where the jobs are listed
 * (lib/background-work.ts), because those domains import lib/webhooks to emit their events.
 */
export function defineWebhookEventJob(sources: EventSources): JobDefinition<typeof webhookEventJobSpec.payload> {
  return defineJob({
    ...webhookEventJobSpec,
    async run(event, { jobId }) {
      const prisma = await db();
      const endpoints = await prisma.webhookEndpoint.findMany({ where: listenersOf(event), select: { id: true } });
      if (!endpoints.length) return;
      const data = await eventData(sources, event);
      if (!data) return; // the resource is gone already (its deletion has its own event)
      // The job's id names the event, so a retried run creates no second delivery of it.
      const envelope = eventEnvelope({ id: jobId, type: event.type, occurredAt: event.occurredAt, data });
      await prisma.webhookDelivery.createMany({
        data: endpoints.map((e) => ({ endpointId: e.id, ...envelope, nextAttemptAt: new Date() })),
        skipDuplicates: true,
      });
      const due = await prisma.webhookDelivery.findMany({
        where: { eventId: envelope.eventId, endpointId: { in: endpoints.map((e) => e.id) }, status: "pending", attempts: { none: {} } },
        orderBy: { id: "asc" },
        select: { id: true },
      });
      for (const delivery of due) await enqueueJob(webhookDeliveryJob, { deliveryId: delivery.id, manual: false });
    },
  });
}
