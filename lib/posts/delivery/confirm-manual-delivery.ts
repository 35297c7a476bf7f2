import { db } from "@/lib/db/client.ts";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import type { Db } from "@/lib/db/types.ts";
import { retryOnUniqueViolation } from "@/lib/db/unique-violation.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { hashRequest } from "@/lib/idempotency/request-hash.ts";
import { replayEvent, type DeliveryAnswer } from "@/lib/posts/delivery/record-delivery.ts";
import { approvalState, confirmManually, freshness } from "@/lib/posts/items/states.ts";
import { getPostById, lockPost } from "@/lib/posts/store/owned-post.ts";
import { toDelivery, type ManualDeliveryInput } from "@/lib/posts/schemas.ts";

type Confirmation = { userId: string; id: string; input: ManualDeliveryInput; requestHash: string };

/**
 * A second confirmation of content already confirmed (a double tap, a second device) records no
 * second delivery: it answers the first one, taking a newly given published_url.
 */
async function repeatConfirmation(tx: Db, { userId, id, input, requestHash }: Confirmation): Promise<DeliveryAnswer | null> {
  const earlier = await tx.contentDelivery.findFirst({
    where: { userId, itemId: id, method: "manual", contentHash: input.content_hash },
    orderBy: { createdAt: "asc" },
  });
  if (!earlier) return null;
  const newUrl = input.published_url !== undefined && input.published_url !== earlier.publishedUrl;
  const delivery = newUrl
    ? await tx.contentDelivery.update({ where: { id: earlier.id }, data: { publishedUrl: input.published_url } })
    : earlier;
  await tx.deliveryEvent.create({
    data: { userId, deliveryId: earlier.id, clientEventId: input.client_event_id, fromState: earlier.state, toState: earlier.state, requestHash },
  });
  return { delivery: toDelivery(delivery), replayed: true };
}

/**
 * The user says they published this variant by hand. Accepted only for an approved variant that
 * is not stale (409 not_approved / stale) and for exactly the approved content. The published URL
 * is stored as the user's evidence; no third-party platform or URL is ever contacted. Idempotent
 * per client_event_id, and one confirmation per variant and content_hash.
 */
export async function confirmManualDelivery({ userId, id, input }: { userId: string; id: string; input: ManualDeliveryInput }): Promise<DeliveryAnswer> {
  const answer = await retryOnUniqueViolation(async () => {
    const prisma = await db();
    return prisma.$transaction(async (tx) => {
      const variant = await lockPost(tx, userId, id, "variant");
      const requestHash = hashRequest({ item_id: id, method: "manual", ...input });
      const replay = await replayEvent(tx, userId, input.client_event_id, requestHash);
      if (replay) return replay;
      if (input.content_hash === variant.contentHash) {
        const repeat = await repeatConfirmation(tx, { userId, id, input, requestHash });
        if (repeat) return repeat;
      }
      const master = await getPostById(tx, variant.masterId!);
      const state = confirmManually({ approval: approvalState(variant), freshness: freshness(variant, master) });
      if (input.content_hash !== variant.contentHash) {
        throw new ApiError("edit_conflict", "The content_hash is not the variant's approved, current content; read it again.");
      }
      const delivery = await tx.contentDelivery.create({
        data: { userId, itemId: id, method: "manual", state, contentHash: variant.contentHash, publishedUrl: input.published_url ?? null },
      });
      await tx.deliveryEvent.create({
        data: { userId, deliveryId: delivery.id, clientEventId: input.client_event_id, fromState: null, toState: state, requestHash },
      });
      return { delivery: toDelivery(delivery), replayed: false };
    }, TRANSACTION_OPTIONS);
  });
  if (!answer.replayed) await emitWebhookEvent({ userId, type: "content.delivery.recorded", subjectId: answer.delivery.id });
  return answer;
}
