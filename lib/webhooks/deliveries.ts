import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client.ts";
import type { WebhookAttempt, WebhookDelivery as DeliveryRow } from "@/lib/db/generated/client.ts";
import { pageTake, paginate } from "@/lib/db/paginate.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import { notFound } from "@/lib/http/errors.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { webhookDeliveryJob } from "@/lib/webhooks/delivery-job.ts";
import { TEST_EVENT_TYPE, type WebhookDelivery } from "@/lib/webhooks/schemas.ts";

// A webhook's delivery log, and what the person sends by hand: a delivery again, or a test event.

const isId = (key: string) => /^[0-9a-f-]{36}$/.test(key);

function presentDelivery(row: DeliveryRow & { attempts: WebhookAttempt[] }): WebhookDelivery {
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

const withAttempts = { attempts: { orderBy: [{ attemptedAt: "asc" as const }, { id: "asc" as const }] } };

async function assertOwnEndpoint(userId: string, id: string): Promise<void> {
  const prisma = await db();
  if (!(await prisma.webhookEndpoint.count({ where: { id, userId } }))) throw notFound(`The webhook ${id}`);
}

/** The endpoint's deliveries, newest first, each with its attempts. */
export async function listDeliveries({ userId, id, input }: { userId: string; id: string; input: { limit: number; cursor?: string } }) {
  await assertOwnEndpoint(userId, id);
  const prisma = await db();
  const rows = await prisma.webhookDelivery.findMany({
    where: { endpointId: id, ...(input.cursor && { id: { lt: decodeCursor(input.cursor, isId) } }) },
    orderBy: { id: "desc" },
    take: pageTake(input.limit),
    include: withAttempts,
  });
  const { page, nextCursor } = paginate(rows, input.limit, (last) => encodeCursor(last.id));
  return { deliveries: page.map(presentDelivery), next_cursor: nextCursor };
}

/** Sends a delivery once more (same webhook-id and body); its status is pending until that attempt ends. */
export async function redeliver({ userId, id, deliveryId }: { userId: string; id: string; deliveryId: string }): Promise<WebhookDelivery> {
  const prisma = await db();
  const found = await prisma.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: id, endpoint: { userId } } });
  if (!found) throw notFound(`The delivery ${deliveryId} of the webhook ${id}`);
  const row = await prisma.webhookDelivery.update({ where: { id: found.id }, data: { status: "pending", nextAttemptAt: new Date() }, include: withAttempts });
  await enqueueJob(webhookDeliveryJob, { deliveryId: row.id, manual: true });
  return presentDelivery(row);
}

/** A webhook.test event to this endpoint alone. */
export async function sendTestEvent({ userId, id }: { userId: string; id: string }): Promise<WebhookDelivery> {
  await assertOwnEndpoint(userId, id);
  const data = { webhook_id: id, message: "A test event from Voicedraft: your endpoint receives and verifies webhooks." };
  const eventId = `msg_${randomUUID().replaceAll("-", "")}`;
  const payload = JSON.stringify({ type: TEST_EVENT_TYPE, timestamp: new Date().toISOString(), data });
  const prisma = await db();
  const row = await prisma.webhookDelivery.create({
    data: { endpointId: id, eventId, type: TEST_EVENT_TYPE, payload, nextAttemptAt: new Date() },
    include: withAttempts,
  });
  await enqueueJob(webhookDeliveryJob, { deliveryId: row.id, manual: true });
  return presentDelivery(row);
}
