import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/webhooks/contracts.ts";
import { rotateWebhookSecret } from "@/lib/webhooks/endpoints/rotate-webhook-secret.ts";

// POST /api/v1/webhooks/{id}/rotate-secret – a new secret; the old one also signs for 24 h
export const POST = withOperation(api.rotateWebhookSecret, async ({ user, params }) => {
  return json(await rotateWebhookSecret({ userId: user.id, id: params.id }));
});
