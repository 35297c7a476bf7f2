import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { confirmManualDelivery } from "@/lib/content/confirm-manual-delivery.ts";
import { requireVariantsEnabled } from "@/lib/content/feature-flag.ts";
import { ManualDeliveryInput } from "@/lib/content/schemas.ts";

// POST /api/v1/content/items/{id}/deliveries/manual – confirm you published an approved, fresh variant by hand
export const POST = withApiKey<{ id: string }>({ scope: "content:write" }, async ({ req, params, user }) => {
  requireVariantsEnabled();
  const input = await parseJson(req, ManualDeliveryInput);
  const answer = await confirmManualDelivery({ userId: user.id, id: params.id, input });
  return json(answer, { status: answer.replayed ? 200 : 201 });
});
