import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/posts/contracts.ts";
import { createVariants } from "@/lib/posts/generation/create-variants.ts";

// POST /api/v1/content/items/{id}/variants – create or reuse variants of a master for your active channels
export const POST = withOperation(api.createContentVariants, async ({ params, user, body: input }) => {
  const { status, body, replayed } = await createVariants({ userId: user.id, masterId: params.id, input });
  return json(body, { status, headers: { "Idempotent-Replayed": String(replayed) } });
});
