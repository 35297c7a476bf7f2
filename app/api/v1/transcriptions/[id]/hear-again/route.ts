import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/notes/contracts.ts";
import { hearNoteAgain } from "@/lib/transcription/recognition/hear-note-again.ts";

// POST /api/v1/transcriptions/{id}/hear-again – hear an older note's recording again with the accurate recognizer
export const POST = withOperation(api.hearTranscriptionAgain, async ({ params, user }) => {
  return json(await hearNoteAgain({ userId: user.id, id: params.id }), { status: 202 });
});
