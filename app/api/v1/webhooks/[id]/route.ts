import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/webhooks/contracts.ts";
import { deleteWebhook } from "@/lib/webhooks/endpoints/delete-webhook.ts";
import { getWebhook } from "@/lib/webhooks/endpoints/get-webhook.ts";
import { updateWebhook } from "@/lib/webhooks/endpoints/update-webhook.ts";

// GET /api/v1/webhooks/{id} – one of your endpoints
export const GET = withOperation(api.getWebhook, async ({ user, params }) => {
  return json({ webhook: await getWebhook({ userId: user.id, id: params.id }) });
});

// PATCH /api/v1/webhooks/{id} – change its URL, events, description or enabled
export const PATCH = withOperation(api.updateWebhook, async ({ user, params, body }) => {
  return json({ webhook: await updateWebhook({ userId: user.id, id: params.id, input: body }) });
});

// DELETE /api/v1/webhooks/{id} – remove it and its delivery log
export const DELETE = withOperation(api.deleteWebhook, async ({ user, params }) => {
  return json({ deleted: await deleteWebhook({ userId: user.id, id: params.id }) });
});
