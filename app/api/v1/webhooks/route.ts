import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/webhooks/contracts.ts";
import { createWebhook } from "@/lib/webhooks/endpoints/create-webhook.ts";
import { listWebhooks } from "@/lib/webhooks/endpoints/list-webhooks.ts";

// POST /api/v1/webhooks – add an endpoint; its secret is in this answer only
export const POST = withOperation(api.createWebhook, async ({ user, body }) => {
  return json(await createWebhook({ userId: user.id, input: body }), { status: 201 });
});

// GET /api/v1/webhooks – your endpoints, oldest first
export const GET = withOperation(api.listWebhooks, async ({ user }) => {
  return json({ webhooks: await listWebhooks({ userId: user.id }) });
});
