import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/notes/contracts.ts";
import { undoHearingAgain } from "@/lib/notes/undo-hearing-again.ts";

// POST /api/v1/transcriptions/{id}/hear-again/undo – put back the text from before the note was heard again
export const POST = withOperation(api.undoHearingAgain, async ({ params, user }) => {
  return json(await undoHearingAgain({ userId: user.id, id: params.id }));
});
