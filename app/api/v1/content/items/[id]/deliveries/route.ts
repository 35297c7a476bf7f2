import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/posts/contracts.ts";
import { recordDelivery } from "@/lib/posts/delivery/record-delivery.ts";

// POST /api/v1/content/items/{id}/deliveries – evidence of a share, copy or export (never a confirmation)
export const POST = withOperation(api.recordContentDelivery, async ({ params, user, body }) => {
  const answer = await recordDelivery({ userId: user.id, id: params.id, input: body });
  return json(answer, { status: answer.replayed ? 200 : 201 });
});
