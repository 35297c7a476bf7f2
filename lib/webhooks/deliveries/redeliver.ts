import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { webhookDeliveryJob } from "@/lib/webhooks/deliveries/delivery-job.ts";
import { presentDelivery, withAttempts } from "@/lib/webhooks/deliveries/present-delivery.ts";
import { ownEndpoint } from "@/lib/webhooks/endpoints/own-endpoint.ts";
import type { WebhookDelivery } from "@/lib/webhooks/schemas.ts";

/** Sends a delivery once more by hand (same webhook-id and body); its status is pending until that attempt ends. */
export async function redeliver({ userId, id, deliveryId }: { userId: string; id: string; deliveryId: string }): Promise<WebhookDelivery> {
  const prisma = await db();
  const found = await prisma.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: id, endpoint: ownEndpoint(userId, id) } });
  if (!found) throw notFound(`The delivery ${deliveryId} of the webhook ${id}`);
  const row = await prisma.webhookDelivery.update({ where: { id: found.id }, data: { status: "pending", nextAttemptAt: new Date() }, include: withAttempts });
  await enqueueJob(webhookDeliveryJob, { deliveryId: row.id, manual: true });
  return presentDelivery(row);
}
