import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/posts/contracts.ts";
import { regenerateVariant } from "@/lib/posts/generation/regenerate-variant.ts";

// POST /api/v1/content/items/{id}/regenerate – a new generation task for a variant
export const POST = withOperation(api.regenerateContentVariant, async ({ params, user, body }) => {
  return json(await regenerateVariant({ userId: user.id, id: params.id, input: body }), { status: 202 });
});
