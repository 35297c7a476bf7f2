import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/tags/contracts.ts";
import { deleteTag } from "@/lib/tags/delete-tag.ts";
import { listTags } from "@/lib/tags/list-tags.ts";

// GET /api/v1/tags – your tags with how many notes carry each, the most used first
export const GET = withOperation(api.listTags, async ({ user }) => {
  return json({ tags: await listTags({ userId: user.id }) });
});

// DELETE /api/v1/tags?name=… – take a tag off every note
export const DELETE = withOperation(api.deleteTag, async ({ user, query }) => {
  return json(await deleteTag({ userId: user.id, input: query }));
});
