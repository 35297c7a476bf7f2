import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/posts/contracts.ts";
import { editItem } from "@/lib/posts/items/edit-item.ts";
import { getItem } from "@/lib/posts/items/get-item.ts";

// GET /api/v1/content/items/{id} – one master or variant
export const GET = withOperation(api.getContentItem, async ({ params, user }) => {
  return json({ item: await getItem({ userId: user.id, id: params.id }) });
});

// PATCH /api/v1/content/items/{id} – edit the title and/or body, guarded by the content_hash you last read
export const PATCH = withOperation(api.editContentItem, async ({ params, user, body }) => {
  return json({ item: await editItem({ userId: user.id, id: params.id, input: body }) });
});
