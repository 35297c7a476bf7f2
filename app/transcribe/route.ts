import { withApiKey } from "@/lib/http/with-api-key.ts";
import { validationError } from "@/lib/http/parse.ts";
import { env } from "@/lib/env.ts";
import { receiveUpload } from "@/lib/transcription/receive-upload.ts";
import { parseIdempotencyKey } from "@/lib/transcription/idempotency-key.ts";
import { transcribeAudio } from "@/lib/transcription/transcribe-audio.ts";
import { transcriptionResponse } from "@/lib/transcription/transcription-response.ts";
import { formatResult } from "@/lib/transcription/format-result.ts";
import { TranscribeFields, TRANSCRIBE_TEXT_FIELDS } from "@/lib/transcription/schemas.ts";

export const dynamic = "force-dynamic";

// POST /transcribe – multipart `audio` (+ prompt, dict, response_format, language) → transcript
export const POST = withApiKey({ scope: "transcribe" }, async ({ req, user }) => {
  const idempotencyKey = parseIdempotencyKey(req);
  const upload = await receiveUpload(req, {
    fileField: "audio",
    maxBytes: env().MAX_UPLOAD_BYTES,
    textFields: TRANSCRIBE_TEXT_FIELDS,
  });
  try {
    const fields = TranscribeFields.safeParse(upload.fields);
    if (!fields.success) throw validationError(fields.error);
    const transcription = await transcribeAudio({ userId: user.id, upload, input: fields.data, idempotencyKey });
    return transcriptionResponse(transcription, formatResult(transcription.result, fields.data.response_format));
  } finally {
    await upload.cleanup();
  }
});
