import { db } from "@/lib/db/client.ts";
import { defineJob } from "@/lib/jobs/define-job.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { eventData } from "@/lib/webhook-events/event-data.ts";
import { webhookDeliveryJob } from "@/lib/webhooks/delivery-job.ts";
import { webhookEventJobSpec } from "@/lib/webhooks/event-spec.ts";

// Sends out the events lib/webhooks/emit-event.ts queues (apart from lib/webhooks: see event-spec.ts).

/** One event → one delivery per listening endpoint, each sent by its own delivery job. */
export const webhookEventJob = defineJob({
  ...webhookEventJobSpec,
  async run(event, { jobId }) {
    const prisma = await db();
    const endpoints = await prisma.webhookEndpoint.findMany({
      where: { userId: event.userId, enabled: true, events: { has: event.type } },
      select: { id: true },
    });
    if (!endpoints.length) return;
    const data = await eventData(event);
    if (!data) return; // the resource is gone already (its deletion has its own event)
    // The job's id names the event, so a retried run creates no second delivery of it.
    const eventId = `msg_${jobId.replaceAll("-", "")}`;
    const payload = JSON.stringify({ type: event.type, timestamp: event.occurredAt, data });
    await prisma.webhookDelivery.createMany({
      data: endpoints.map((e) => ({ endpointId: e.id, eventId, type: event.type, payload, nextAttemptAt: new Date() })),
      skipDuplicates: true,
    });
    const due = await prisma.webhookDelivery.findMany({
      where: { eventId, endpointId: { in: endpoints.map((e) => e.id) }, status: "pending", attempts: { none: {} } },
      orderBy: { id: "asc" },
      select: { id: true },
    });
    for (const delivery of due) await enqueueJob(webhookDeliveryJob, { deliveryId: delivery.id, manual: false });
  },
});
