import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/notes/contracts.ts";
import { tickActionItems } from "@/lib/notes/tick-action-items.ts";

// PATCH /api/v1/transcriptions/{id}/insights – tick (or untick) the note's action items
export const PATCH = withOperation(api.tickActionItems, async ({ params, user, body }) => {
  return json(await tickActionItems({ userId: user.id, id: params.id, input: body }));
});
