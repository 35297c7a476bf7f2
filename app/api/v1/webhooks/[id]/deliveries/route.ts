import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/webhooks/contracts.ts";
import { listDeliveries } from "@/lib/webhooks/deliveries/list-deliveries.ts";

// GET /api/v1/webhooks/{id}/deliveries – what was sent, newest first, with every attempt
export const GET = withOperation(api.listWebhookDeliveries, async ({ user, params, query }) => {
  return json(await listDeliveries({ userId: user.id, id: params.id, input: query }));
});
