import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/rewrites/contracts.ts";
import { deleteRewriteStyle, updateRewriteStyle } from "@/lib/rewrites/style-store.ts";

// PATCH /api/v1/rewrite-styles/{id} – rename one of your styles or change its instructions
export const PATCH = withOperation(api.updateRewriteStyle, async ({ params, user, body }) => {
  return json({ style: await updateRewriteStyle({ userId: user.id, id: params.id, input: body }) });
});

// DELETE /api/v1/rewrite-styles/{id} – delete one of your styles (its rewrites are kept)
export const DELETE = withOperation(api.deleteRewriteStyle, async ({ params, user }) => {
  return json({ deleted: await deleteRewriteStyle({ userId: user.id, id: params.id }) });
});
