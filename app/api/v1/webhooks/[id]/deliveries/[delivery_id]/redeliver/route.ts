import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/webhooks/contracts.ts";
import { redeliver } from "@/lib/webhooks/deliveries/redeliver.ts";

// POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver – send the same event again
export const POST = withOperation(api.redeliverWebhook, async ({ user, params }) => {
  return json({ delivery: await redeliver({ userId: user.id, id: params.id, deliveryId: params.delivery_id }) }, { status: 202 });
});
