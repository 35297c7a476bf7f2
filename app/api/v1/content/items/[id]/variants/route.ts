import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { createVariants } from "@/lib/content/create-variants.ts";
import { requireVariantsEnabled } from "@/lib/content/feature-flag.ts";
import { CreateVariantsInput } from "@/lib/content/schemas.ts";

// POST /api/v1/content/items/{id}/variants – create or reuse variants of a master for your active channels
export const POST = withApiKey<{ id: string }>({ scope: "content:write" }, async ({ req, params, user }) => {
  requireVariantsEnabled();
  const input = await parseJson(req, CreateVariantsInput);
  const { status, body, replayed } = await createVariants({ userId: user.id, masterId: params.id, input });
  return json(body, { status, headers: { "Idempotent-Replayed": String(replayed) } });
});
