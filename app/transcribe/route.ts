import { withOperation } from "@/lib/api/with-operation.ts";
import * as api from "@/lib/transcription/contracts.ts";
import { TRANSCRIBE_FORM, transcribeUpload } from "@/lib/transcription/upload/transcribe-upload.ts";

export const dynamic = "force-dynamic";

// POST /transcribe – multipart `audio` (+ prompt, dict, response_format, language) → transcript (SSE with Accept: text/event-stream)
export const POST = withOperation(api.transcribe, async ({ req, user, requestId }) => {
  return transcribeUpload({ req, userId: user.id, requestId, form: TRANSCRIBE_FORM });
});
