import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { requireVariantsEnabled } from "@/lib/content/feature-flag.ts";
import { regenerateVariant } from "@/lib/content/regenerate-variant.ts";
import { RegenerateInput } from "@/lib/content/schemas.ts";

// POST /api/v1/content/items/{id}/regenerate – a new generation task for a variant
export const POST = withApiKey<{ id: string }>({ scope: "content:write" }, async ({ req, params, user }) => {
  requireVariantsEnabled();
  const input = await parseJson(req, RegenerateInput);
  return json(await regenerateVariant({ userId: user.id, id: params.id, input }), { status: 202 });
});
