import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseQuery } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { listTranscriptions } from "@/lib/transcription/list-transcriptions.ts";
import { ListTranscriptionsQuery } from "@/lib/transcription/schemas.ts";

// GET /api/v1/transcriptions – your transcriptions, newest first, a page at a time
export const GET = withApiKey({ scope: "transcribe" }, async ({ req, user }) => {
  return json(await listTranscriptions({ userId: user.id, input: parseQuery(req, ListTranscriptionsQuery) }));
});
