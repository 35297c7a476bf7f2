import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/posts/contracts.ts";
import { getFamily } from "@/lib/posts/items/get-family.ts";

// GET /api/v1/content/items/{id}/family – the master and its variants, from any member's id
export const GET = withOperation(api.getContentFamily, async ({ params, user }) => {
  return json(await getFamily({ userId: user.id, id: params.id }));
});
