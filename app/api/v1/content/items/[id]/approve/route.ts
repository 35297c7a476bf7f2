import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/posts/contracts.ts";
import { approveVariant } from "@/lib/posts/delivery/approve-variant.ts";

// POST /api/v1/content/items/{id}/approve – approve exactly the variant's title and body with this content_hash
export const POST = withOperation(api.approveContentVariant, async ({ params, user, body }) => {
  return json({ item: await approveVariant({ userId: user.id, id: params.id, input: body }) });
});
