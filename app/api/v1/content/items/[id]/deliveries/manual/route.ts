import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/posts/contracts.ts";
import { confirmManualDelivery } from "@/lib/posts/delivery/confirm-manual-delivery.ts";

// POST /api/v1/content/items/{id}/deliveries/manual – confirm you published an approved, fresh variant by hand
export const POST = withOperation(api.confirmManualDelivery, async ({ params, user, body }) => {
  const answer = await confirmManualDelivery({ userId: user.id, id: params.id, input: body });
  return json(answer, { status: answer.replayed ? 200 : 201 });
});
