import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { approveVariant } from "@/lib/content/approve-variant.ts";
import { requireVariantsEnabled } from "@/lib/content/feature-flag.ts";
import { ApproveInput } from "@/lib/content/schemas.ts";

// POST /api/v1/content/items/{id}/approve – approve exactly the variant's title and body with this content_hash
export const POST = withApiKey<{ id: string }>({ scope: "content:write" }, async ({ req, params, user }) => {
  requireVariantsEnabled();
  const input = await parseJson(req, ApproveInput);
  return json({ item: await approveVariant({ userId: user.id, id: params.id, input }) });
});
