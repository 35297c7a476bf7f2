import { db } from "@/lib/db/client.ts";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import type { Db } from "@/lib/db/types.ts";
import { retryOnUniqueViolation } from "@/lib/db/unique-violation.ts";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { KEY_KINDS, replayOrConflict } from "@/lib/idempotency/key-kinds.ts";
import { hashRequest } from "@/lib/idempotency/request-hash.ts";
import { moveDelivery, type DeliveryState } from "@/lib/posts/items/states.ts";
import { lockPost } from "@/lib/posts/store/owned-post.ts";
import { splitPosts } from "@/lib/posts/generators/platform-rules.ts";
import { toDelivery, type Delivery, type RecordDeliveryInput } from "@/lib/posts/schemas.ts";

export type DeliveryAnswer = { delivery: Delivery; replayed: boolean };

/** An earlier answer for this client event id: replayed if the same request, else 409. */
export async function replayEvent(tx: Db, userId: string, clientEventId: string, requestHash: string): Promise<DeliveryAnswer | null> {
  const event = await tx.deliveryEvent.findUnique({
    where: { userId_clientEventId: { userId, clientEventId } },
    include: { delivery: true },
  });
  const earlier = replayOrConflict(KEY_KINDS.deliveryEvent, event, requestHash);
  return earlier && { delivery: toDelivery(earlier.delivery), replayed: true };
}

/**
 * Records what a share panel, a copy or an export did, as evidence: initiated, presented,
 * cancelled or failed. Never a confirmation of publication (see states.ts). Idempotent per
 * client_event_id.
 */
export async function recordDelivery({ userId, id, input }: { userId: string; id: string; input: RecordDeliveryInput }): Promise<DeliveryAnswer> {
  const answer = await retryOnUniqueViolation(async () => {
    const prisma = await db();
    return prisma.$transaction(async (tx) => {
      const item = await lockPost(tx, userId, id);
      const requestHash = hashRequest({ item_id: id, ...input });
      const replay = await replayEvent(tx, userId, input.client_event_id, requestHash);
      if (replay) return replay;
      const earlier = input.delivery_id
        ? await tx.contentDelivery.findFirst({ where: { id: input.delivery_id, userId, itemId: id } })
        : null;
      if (input.delivery_id && !earlier) throw notFound(`The delivery ${input.delivery_id}`);
      if (earlier && earlier.method !== input.method) {
        throw new ApiError("invalid_transition", `The delivery ${earlier.id} is a ${earlier.method}, not a ${input.method}.`);
      }
      if (earlier && input.post !== undefined && earlier.post !== input.post) {
        throw new ApiError("invalid_transition", `The delivery ${earlier.id} is of ${earlier.post ? `post ${earlier.post}` : "the whole variant"}, not post ${input.post}.`);
      }
      if (input.post !== undefined && input.post > splitPosts(item.body).length) {
        throw new ApiError("validation_failed", `The variant has ${splitPosts(item.body).length} post(s): there is no post ${input.post}.`, {
          details: [{ path: "post", message: `must be at most ${splitPosts(item.body).length}` }],
        });
      }
      const fromState = (earlier?.state ?? null) as DeliveryState | null;
      const toState = moveDelivery(fromState, input.state);
      const delivery = earlier
        ? await tx.contentDelivery.update({ where: { id: earlier.id }, data: { state: toState } })
        : await tx.contentDelivery.create({
            data: { userId, itemId: id, method: input.method, state: toState, contentHash: input.content_hash ?? item.contentHash, post: input.post ?? null },
          });
      await tx.deliveryEvent.create({
        data: { userId, deliveryId: delivery.id, clientEventId: input.client_event_id, fromState, toState, requestHash },
      });
      return { delivery: toDelivery(delivery), replayed: false };
    }, TRANSACTION_OPTIONS);
  });
  if (!answer.replayed) await emitWebhookEvent({ userId, type: "content.delivery.recorded", subjectId: answer.delivery.id });
  return answer;
}
