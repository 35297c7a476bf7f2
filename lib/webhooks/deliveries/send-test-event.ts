import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { webhookDeliveryJob } from "@/lib/webhooks/deliveries/delivery-job.ts";
import { eventEnvelope } from "@/lib/webhooks/deliveries/event-envelope.ts";
import { presentDelivery, withAttempts } from "@/lib/webhooks/deliveries/present-delivery.ts";
import { findOwnEndpoint } from "@/lib/webhooks/endpoints/own-endpoint.ts";
import { TEST_EVENT_TYPE, type WebhookDelivery } from "@/lib/webhooks/schemas.ts";

/** A webhook.test event to this endpoint alone (sent even while it is paused, and not retried). */
export async function sendTestEvent({ userId, id }: { userId: string; id: string }): Promise<WebhookDelivery> {
  await findOwnEndpoint({ userId, id });
  const data = { webhook_id: id, message: "A test event from Voicedraft: your endpoint receives and verifies webhooks." };
  const envelope = eventEnvelope({ id: randomUUID(), type: TEST_EVENT_TYPE, occurredAt: new Date().toISOString(), data });
  const prisma = await db();
  const row = await prisma.webhookDelivery.create({ data: { endpointId: id, ...envelope, nextAttemptAt: new Date() }, include: withAttempts });
  await enqueueJob(webhookDeliveryJob, { deliveryId: row.id, manual: true });
  return presentDelivery(row);
}
