import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/webhooks/contracts.ts";
import { sendTestEvent } from "@/lib/webhooks/deliveries/send-test-event.ts";

// POST /api/v1/webhooks/{id}/test – send a webhook.test event
export const POST = withOperation(api.testWebhook, async ({ user, params }) => {
  return json({ delivery: await sendTestEvent({ userId: user.id, id: params.id }) }, { status: 202 });
});
