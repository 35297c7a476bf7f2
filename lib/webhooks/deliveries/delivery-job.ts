import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import type { WebhookEndpoint } from "@/lib/db/generated/client.ts";
import { env } from "@/lib/env.ts";
import { defineJob } from "@/lib/jobs/define-job.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { log } from "@/lib/log.ts";
import { sendWebhook, type SendOutcome } from "@/lib/webhooks/deliveries/send-webhook.ts";
import { signingSecrets } from "@/lib/webhooks/endpoints/webhook-secrets.ts";

// One attempt of one delivery. A failure schedules the next attempt after the next delay of
// WEBHOOKS_RETRY_SCHEDULE; when the schedule is spent the delivery has failed, and an endpoint
// that has not succeeded once since this delivery's first attempt is disabled. The queue's own
// retries are only for a crash of the job itself.

/** "27 hours", "3 minutes", "2 seconds": how long a schedule lasts, in words. */
export function spanInWords(seconds: number): string {
  if (seconds >= 2 * 3600) return `${Math.round(seconds / 3600)} hours`;
  if (seconds >= 120) return `${Math.round(seconds / 60)} minutes`;
  return Math.round(seconds) === 1 ? "1 second" : `${Math.round(seconds)} seconds`;
}

export const webhookDeliveryJob = defineJob({
  name: "webhook-deliver",
  payload: z.strictObject({
    deliveryId: z.string().min(1),
    /** Asked for by the person (redeliver, test): sent even to a paused endpoint, and not retried. */
    manual: z.boolean(),
  }),
  // The receiver has 10 s; a run still active after a minute is presumed lost.
  expireInSeconds: 60,
  async run({ deliveryId, manual }) {
    const prisma = await db();
    const delivery = await prisma.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true } });
    if (!delivery || delivery.status !== "pending") return;
    const { endpoint } = delivery;
    // A job queued before a later schedule (a stale duplicate): the scheduled one will run.
    if (!manual && delivery.nextAttemptAt && delivery.nextAttemptAt.getTime() > Date.now() + 1000) return;
    if (!manual && !endpoint.enabled) {
      await prisma.webhookDelivery.update({ where: { id: deliveryId }, data: { status: "failed", nextAttemptAt: null } });
      return;
    }
    const attemptedAt = new Date();
    const outcome = await sendWebhook({ eventId: delivery.eventId, payload: delivery.payload, secrets: signingSecrets(endpoint), url: endpoint.url });
    await prisma.webhookAttempt.create({
      data: {
        deliveryId,
        attemptedAt,
        statusCode: outcome.statusCode,
        durationMs: outcome.durationMs,
        error: outcome.error,
        responseExcerpt: outcome.responseExcerpt,
      },
    });
    if (outcome.delivered) {
      await prisma.webhookDelivery.update({ where: { id: deliveryId }, data: { status: "delivered", nextAttemptAt: null } });
      await prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null } });
      return;
    }
    await afterFailure({ deliveryId, endpoint, outcome, manual, attemptedAt });
  },
});

type Failure = { deliveryId: string; endpoint: WebhookEndpoint; outcome: SendOutcome; manual: boolean; attemptedAt: Date };

async function afterFailure({ deliveryId, endpoint, outcome, manual, attemptedAt }: Failure): Promise<void> {
  const prisma = await db();
  const now = new Date();
  // The first failure since the last success (only when none is recorded: updateMany's where says so).
  await prisma.webhookEndpoint.updateMany({ where: { id: endpoint.id, failingSince: null }, data: { failingSince: attemptedAt } });
  const attempts = await prisma.webhookAttempt.findMany({ where: { deliveryId }, orderBy: { attemptedAt: "asc" }, select: { attemptedAt: true } });
  const schedule = env().WEBHOOKS_RETRY_SCHEDULE;
  const delay = manual ? undefined : schedule[attempts.length - 1];
  if (delay !== undefined) {
    await prisma.webhookDelivery.update({ where: { id: deliveryId }, data: { nextAttemptAt: new Date(now.getTime() + delay * 1000) } });
    await enqueueJob(webhookDeliveryJob, { deliveryId, manual: false }, { startAfterSeconds: delay });
    return;
  }
  const failed = prisma.webhookDelivery.update({ where: { id: deliveryId }, data: { status: "failed", nextAttemptAt: null } });
  if (manual) {
    await failed;
    return;
  }
  // Failing without one success since this delivery was first tried: through the whole schedule.
  // One transaction: whoever sees the delivery failed sees the endpoint disabled with it.
  const firstAttempt = attempts[0].attemptedAt;
  const [, disabled] = await prisma.$transaction([
    failed,
    prisma.webhookEndpoint.updateMany({
      where: { id: endpoint.id, enabled: true, failingSince: { lte: firstAttempt } },
      data: {
        enabled: false,
        disabledAt: now,
        disabledReason:
          `Every delivery failed for ${spanInWords(schedule.reduce((a, b) => a + b, 0))} ` +
          `(the last: ${(outcome.error ?? "no 2xx answer").replace(/\.$/, "")}). Fix the receiver, then turn the webhook on again.`,
      },
    }),
  ]);
  if (disabled.count) log.warn("webhook endpoint disabled", { endpoint_id: endpoint.id, error: outcome.error });
}
