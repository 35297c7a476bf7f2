import { withOperation } from "@/lib/api/with-operation.ts";
import * as api from "@/lib/notes/contracts.ts";
import { serveNoteAudio } from "@/lib/note-audio/serve-note-audio.ts";

// GET /api/v1/transcriptions/{id}/audio – the note's kept recording, with Range support
export const GET = withOperation(api.getTranscriptionAudio, async ({ params, user, req }) => {
  return serveNoteAudio({ userId: user.id, id: params.id, req });
});
