import { withApiKey } from "@/lib/http/with-api-key.ts";
import { validationError } from "@/lib/http/parse.ts";
import { env } from "@/lib/env.ts";
import { receiveUpload } from "@/lib/transcription/receive-upload.ts";
import { parseIdempotencyKey } from "@/lib/transcription/idempotency-key.ts";
import { transcribeAudio } from "@/lib/transcription/transcribe-audio.ts";
import { transcriptionResponse } from "@/lib/transcription/transcription-response.ts";
import { formatOpenAiResult } from "@/lib/transcription/format-result.ts";
import { OpenAiTranscriptionFields, OPENAI_TEXT_FIELDS } from "@/lib/transcription/schemas.ts";

export const dynamic = "force-dynamic";

// POST /v1/audio/transcriptions – OpenAI-compatible transcription (field `file`) on the same pipeline
export const POST = withApiKey({ scope: "transcribe" }, async ({ req, user }) => {
  const idempotencyKey = parseIdempotencyKey(req);
  const upload = await receiveUpload(req, { fileField: "file", maxBytes: env().MAX_UPLOAD_BYTES, textFields: OPENAI_TEXT_FIELDS });
  try {
    const fields = OpenAiTranscriptionFields.safeParse(upload.fields);
    if (!fields.success) throw validationError(fields.error);
    const { prompt, language, response_format } = fields.data;
    const input = { prompt, language, response_format };
    const transcription = await transcribeAudio({ userId: user.id, upload, input, idempotencyKey });
    return transcriptionResponse(transcription, formatOpenAiResult(transcription.result, response_format));
  } finally {
    await upload.cleanup();
  }
});
