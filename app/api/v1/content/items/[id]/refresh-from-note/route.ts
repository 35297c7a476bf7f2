import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/posts/contracts.ts";
import { updateFromNote } from "@/lib/posts/generation/update-from-note.ts";

// POST /api/v1/content/items/{id}/refresh-from-note – copy the note's current text into the master made from it (and, asked, rewrite its unapproved posts)
export const POST = withOperation(api.refreshContentFromNote, async ({ params, user, body }) => {
  return json(await updateFromNote({ userId: user.id, id: params.id, input: body }));
});
