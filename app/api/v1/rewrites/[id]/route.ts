import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/rewrites/contracts.ts";
import { deleteRewrite, editRewrite, getRewrite } from "@/lib/rewrites/rewrite-store.ts";

// GET /api/v1/rewrites/{id} – one of your rewrites
export const GET = withOperation(api.getRewrite, async ({ params, user }) => {
  return json({ rewrite: await getRewrite({ userId: user.id, id: params.id }) });
});

// PATCH /api/v1/rewrites/{id} – replace its text or title with yours
export const PATCH = withOperation(api.editRewrite, async ({ params, user, body }) => {
  return json({ rewrite: await editRewrite({ userId: user.id, id: params.id, input: body }) });
});

// DELETE /api/v1/rewrites/{id} – delete it (the note is kept)
export const DELETE = withOperation(api.deleteRewrite, async ({ params, user }) => {
  return json({ deleted: await deleteRewrite({ userId: user.id, id: params.id }) });
});
