import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/content/contracts.ts";
import { refreshFromNote } from "@/lib/content/items/refresh-from-note.ts";

// POST /api/v1/content/items/{id}/refresh-from-note – copy the note's current text into the master made from it
export const POST = withOperation(api.refreshContentFromNote, async ({ params, user, body }) => {
  return json({ item: await refreshFromNote({ userId: user.id, id: params.id, input: body }) });
});
