import { withOperation } from "@/lib/api/with-operation.ts";
import * as api from "@/lib/transcription/contracts.ts";
import { OPENAI_FORM, transcribeUpload } from "@/lib/transcription/upload/transcribe-upload.ts";

export const dynamic = "force-dynamic";

// POST /v1/audio/transcriptions – OpenAI-compatible transcription (field `file`) on the same pipeline
export const POST = withOperation(api.createOpenAiTranscription, async ({ req, user, requestId }) => {
  return transcribeUpload({ req, userId: user.id, requestId, form: OPENAI_FORM });
});
