import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { recordDelivery } from "@/lib/content/record-delivery.ts";
import { RecordDeliveryInput } from "@/lib/content/schemas.ts";

// POST /api/v1/content/items/{id}/deliveries – evidence of a share, copy or export (never a confirmation)
export const POST = withApiKey<{ id: string }>({ scope: "content:write" }, async ({ req, params, user }) => {
  const input = await parseJson(req, RecordDeliveryInput);
  const answer = await recordDelivery({ userId: user.id, id: params.id, input });
  return json(answer, { status: answer.replayed ? 200 : 201 });
});
