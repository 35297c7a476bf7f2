import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/notes/contracts.ts";
import { deleteNote } from "@/lib/notes/delete-note.ts";
import { editNote } from "@/lib/notes/edit-note.ts";
import { getNote } from "@/lib/notes/get-note.ts";

// GET /api/v1/transcriptions/{id} – one of your transcriptions, with its segments and optimization
export const GET = withOperation(api.getTranscription, async ({ params, user }) => {
  return json(await getNote({ userId: user.id, id: params.id }));
});

// PATCH /api/v1/transcriptions/{id} – replace the transcript text with your edit
export const PATCH = withOperation(api.editTranscription, async ({ params, user, body }) => {
  return json(await editNote({ userId: user.id, id: params.id, input: body }));
});

// DELETE /api/v1/transcriptions/{id} – delete a note and its recording (and its posts with ?with_posts=true)
export const DELETE = withOperation(api.deleteTranscription, async ({ params, user, query }) => {
  await deleteNote({ userId: user.id, id: params.id, withPosts: query.with_posts === "true" });
  return new Response(null, { status: 204 });
});
