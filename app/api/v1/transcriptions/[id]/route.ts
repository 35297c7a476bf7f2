import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { editTranscription } from "@/lib/transcription/edit-transcription.ts";
import { getTranscription } from "@/lib/transcription/get-transcription.ts";
import { EditTranscriptionInput } from "@/lib/transcription/schemas.ts";

// GET /api/v1/transcriptions/{id} – one of your transcriptions, with its segments and optimization
export const GET = withApiKey<{ id: string }>({ scope: "transcribe" }, async ({ params, user }) => {
  return json(await getTranscription({ userId: user.id, id: params.id }));
});

// PATCH /api/v1/transcriptions/{id} – replace the transcript text with your edit
export const PATCH = withApiKey<{ id: string }>({ scope: "transcribe" }, async ({ req, params, user }) => {
  const input = await parseJson(req, EditTranscriptionInput);
  return json(await editTranscription({ userId: user.id, id: params.id, input }));
});
