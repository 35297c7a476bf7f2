import { db } from "@/lib/db/client.ts";
import { getItem } from "@/lib/content/items/get-item.ts";
import { toDelivery } from "@/lib/content/schemas.ts";
import { getTranscription } from "@/lib/transcription/transcripts/get-transcription.ts";
import type { WebhookEventType } from "@/lib/webhooks/schemas.ts";

// An event's `data`: the ids and the resource as the API answers it (GET of the same thing), read
// when the event is sent out, never secrets. null when the resource is gone by then (nothing to send).

export type EventSubject = { userId: string; type: WebhookEventType; subjectId: string | null; detail: string | null };

type Data = Record<string, unknown>;

/** Reads a resource, or null when it is gone (a 404 of the API). */
async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if ((err as { code?: string }).code === "not_found") return null;
    throw err;
  }
}

async function optimizationData(userId: string, workflowId: string): Promise<Data | null> {
  const prisma = await db();
  const note = await prisma.transcription.findFirst({ where: { userId, optimizationId: workflowId }, orderBy: { createdAt: "desc" }, select: { id: true } });
  if (!note) return null;
  const transcription = await orNull(() => getTranscription({ userId, id: note.id }));
  return transcription && { optimization_id: workflowId, transcription_id: note.id, optimization: transcription.optimization ?? null, transcription };
}

async function deliveryData(userId: string, deliveryId: string): Promise<Data | null> {
  const prisma = await db();
  const row = await prisma.contentDelivery.findFirst({ where: { id: deliveryId, userId } });
  return row && { delivery_id: row.id, item_id: row.itemId, delivery: toDelivery(row) };
}

/** The data of one event, or null when its resource no longer exists. */
export async function eventData({ userId, type, subjectId, detail }: EventSubject): Promise<Data | null> {
  const id = subjectId ?? "";
  switch (type) {
    case "transcription.completed": {
      const transcription = await orNull(() => getTranscription({ userId, id }));
      return transcription && { transcription_id: id, transcription };
    }
    case "transcription.failed":
      return { recording_id: subjectId, error: { code: detail ?? "internal_error" } };
    case "optimization.completed":
      return optimizationData(userId, id);
    case "content.variants.generated":
    case "content.variant.approved": {
      const variant = await orNull(() => getItem({ userId, id }));
      return variant && { variant_id: id, master_id: variant.master_id ?? null, variant };
    }
    case "content.delivery.recorded":
      return deliveryData(userId, id);
    case "note.deleted":
      return { transcription_id: id };
  }
}
