import { db } from "@/lib/db/client.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { log } from "@/lib/log.ts";
import { webhookDeliveryJob } from "@/lib/webhooks/deliveries/delivery-job.ts";
import { TEST_EVENT_TYPE } from "@/lib/webhooks/schemas.ts";

// Every path that sends a delivery first saves it (pending, with its next attempt's time) and then
// queues its job: the event job, a retry, a redelivery, the test event. A process that dies between
// the two (or a queue that refused the job) leaves a delivery nobody will send. This sweep queues
// again the deliveries still pending well past their time.

/**
 * How late a pending delivery must be before it is presumed lost. Longer than the queue's own
 * recovery of a run cut short (the job expires after 60 s and is retried), so the sweep does not
 * race the queue; a duplicate job is harmless anyway (the job sends only what is still due).
 */
export const OVERDUE_SECONDS = 300;
const BATCH = 100;

/** Queues each delivery pending past its next attempt by OVERDUE_SECONDS; returns how many. */
export async function recoverOverdueDeliveries(now = new Date()): Promise<number> {
  const prisma = await db();
  const overdue = await prisma.webhookDelivery.findMany({
    where: { status: "pending", nextAttemptAt: { lt: new Date(now.getTime() - OVERDUE_SECONDS * 1000) } },
    orderBy: { nextAttemptAt: "asc" },
    select: { id: true, type: true, nextAttemptAt: true },
    take: BATCH,
  });
  let queued = 0;
  for (const delivery of overdue) {
    if (!(await claim(delivery.id, delivery.nextAttemptAt!, now))) continue;
    // A test event is sent even to a paused endpoint and not retried, as when it was asked for.
    await enqueueJob(webhookDeliveryJob, { deliveryId: delivery.id, manual: delivery.type === TEST_EVENT_TYPE });
    queued++;
  }
  if (queued) log.info("webhook deliveries queued again", { count: queued });
  return queued;
}

/**
 * Moves the next attempt to now, matching the row only as it was read: one sweeping process wins,
 * and the delivery is not overdue again until another margin has passed.
 */
async function claim(id: string, nextAttemptAt: Date, now: Date): Promise<boolean> {
  const prisma = await db();
  const { count } = await prisma.webhookDelivery.updateMany({ where: { id, status: "pending", nextAttemptAt }, data: { nextAttemptAt: now } });
  return count === 1;
}
