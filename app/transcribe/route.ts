import { withApiKey } from "@/lib/http/with-api-key.ts";
import { json } from "@/lib/http/respond.ts";
import { validationError } from "@/lib/http/parse.ts";
import { env } from "@/lib/env.ts";
import { receiveUpload } from "@/lib/transcription/receive-upload.ts";
import { parseIdempotencyKey } from "@/lib/transcription/idempotency-key.ts";
import { transcribeAudio } from "@/lib/transcription/transcribe-audio.ts";
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
    const { result, replayed } = await transcribeAudio({ userId: user.id, upload, input: fields.data, idempotencyKey });
    const headers = { "X-Transcription-Id": result.id, ...(replayed && { "Idempotent-Replayed": "true" }) };
    const formatted = formatResult(result, fields.data.response_format);
    if ("json" in formatted) return json(formatted.json, { headers });
    return new Response(formatted.body, { headers: { "content-type": formatted.contentType, ...headers } });
  } finally {
    await upload.cleanup();
  }
});
