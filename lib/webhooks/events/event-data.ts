import { cleanUpExists } from "@/lib/clean-up/store/clean-up-workflows.ts";
import { latestNoteOfCleanUp } from "@/lib/notes/store/note-writes.ts";
import type { WebhookEventType } from "@/lib/webhooks/schemas.ts";

// An event's `data`: the ids and the resource as the API answers it (GET of the same thing), read
// when the event is sent out, never secrets. null when the resource is gone by then (nothing to send).

export type EventSubject = { userId: string; type: WebhookEventType; subjectId: string | null; detail: string | null };

/** A domain's own read of one of the person's resources, as the API answers it; throws not_found when it is gone. */
type Read<T> = (query: { userId: string; id: string }) => Promise<T>;

/**
 * How the event job reads what events are about. The domains that emit events import lib/webhooks,
 * so lib/webhooks imports none of them: their reads are given to it (lib/background-work.ts).
 */
export type EventSources = {
  transcription: Read<{ optimization?: unknown }>;
  item: Read<{ master_id: string | null }>;
  delivery: Read<{ id: string; item_id: string }>;
};

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

async function cleanUpData(sources: EventSources, userId: string, workflowId: string): Promise<Data | null> {
  const note = await latestNoteOfCleanUp({ userId, optimizationId: workflowId });
  if (!note) {
    // A short recording's clean-up completes in its upload before the note is saved: the queue
    // tries again in a moment. Gone with its note (deleted with it), there is nothing to send.
    if (await cleanUpExists({ id: workflowId, userId })) throw new Error("No note shows this clean-up yet; the event is sent once its upload saved it.");
    return null;
  }
  const transcription = await orNull(() => sources.transcription({ userId, id: note.id }));
  return transcription && { optimization_id: workflowId, transcription_id: note.id, optimization: transcription.optimization ?? null, transcription };
}

/** The data of one event, or null when its resource no longer exists. */
export async function eventData(sources: EventSources, { userId, type, subjectId, detail }: EventSubject): Promise<Data | null> {
  const id = subjectId ?? "";
  switch (type) {
    case "transcription.completed": {
      const transcription = await orNull(() => sources.transcription({ userId, id }));
      return transcription && { transcription_id: id, transcription };
    }
    case "transcription.failed":
      return { recording_id: subjectId, error: { code: detail ?? "internal_error" } };
    case "optimization.completed":
      return cleanUpData(sources, userId, id);
    case "content.variants.generated":
    case "content.variant.approved": {
      const variant = await orNull(() => sources.item({ userId, id }));
      return variant && { variant_id: id, master_id: variant.master_id ?? null, variant };
    }
    case "content.delivery.recorded": {
      const delivery = await orNull(() => sources.delivery({ userId, id }));
      return delivery && { delivery_id: delivery.id, item_id: delivery.item_id, delivery };
    }
    case "note.deleted":
      return { transcription_id: id };
  }
}
