import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/tags/contracts.ts";
import { renameTag } from "@/lib/tags/rename-tag.ts";

// POST /api/v1/tags/rename – rename a tag on every note (merging into one you already have)
export const POST = withOperation(api.renameTag, async ({ user, body }) => {
  return json(await renameTag({ userId: user.id, input: body }));
});
