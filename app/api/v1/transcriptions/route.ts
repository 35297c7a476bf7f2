import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/notes/contracts.ts";
import { listNotes } from "@/lib/notes/list-notes.ts";

// GET /api/v1/transcriptions – your transcriptions, newest first, a page at a time
export const GET = withOperation(api.listTranscriptions, async ({ user, query }) => {
  return json(await listNotes({ userId: user.id, input: query }));
});
