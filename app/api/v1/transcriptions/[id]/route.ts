import { withApiKey } from "@/lib/http/with-api-key.ts";
import { json } from "@/lib/http/respond.ts";
import { getTranscription } from "@/lib/transcription/get-transcription.ts";

// GET /api/v1/transcriptions/{id} – one of your transcriptions, with its segments
export const GET = withApiKey<{ id: string }>({ scope: "transcribe" }, async ({ params, user }) => {
  return json(await getTranscription({ userId: user.id, id: params.id }));
});
