import type { z } from "zod";
import { env } from "@/lib/env.ts";
import { validationError } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { formatOpenAiResult, formatResult } from "@/lib/transcription/format-result.ts";
import { parseIdempotencyKey } from "@/lib/transcription/idempotency-key.ts";
import { receiveUpload } from "@/lib/transcription/receive-upload.ts";
import {
  OPENAI_TEXT_FIELDS,
  OpenAiTranscriptionFields,
  TRANSCRIBE_TEXT_FIELDS,
  TranscribeFields,
  type TranscriptionResult,
} from "@/lib/transcription/schemas.ts";
import { transcribeAudio } from "@/lib/transcription/transcribe-audio.ts";

type Formatted = ReturnType<typeof formatResult>;
type TranscribeInput = Parameters<typeof transcribeAudio>[0]["input"];

/** What sets the two upload endpoints apart: the form's fields and the answer's shape. */
export type UploadForm<F extends z.ZodObject> = {
  fileField: string;
  textFields: string[];
  fields: F;
  /** The recognition options among the fields (what the idempotency check compares). */
  input: (fields: z.output<F>) => TranscribeInput;
  format: (result: TranscriptionResult, fields: z.output<F>) => Formatted;
};

/** POST /transcribe: the file in `audio`, Voicedraft's fields and answer. */
export const TRANSCRIBE_FORM: UploadForm<typeof TranscribeFields> = {
  fileField: "audio",
  textFields: TRANSCRIBE_TEXT_FIELDS,
  fields: TranscribeFields,
  input: (fields) => fields,
  format: (result, fields) => formatResult(result, fields.response_format),
};

/** POST /v1/audio/transcriptions: OpenAI's form (the file in `file`; model and temperature ignored) and answer. */
export const OPENAI_FORM: UploadForm<typeof OpenAiTranscriptionFields> = {
  fileField: "file",
  textFields: OPENAI_TEXT_FIELDS,
  fields: OpenAiTranscriptionFields,
  input: ({ prompt, language, response_format }) => ({ prompt, language, response_format }),
  format: (result, fields) => formatOpenAiResult(result, fields.response_format),
};

function transcriptionResponse({ result, replayed }: { result: TranscriptionResult; replayed: boolean }, formatted: Formatted): Response {
  const headers = { "X-Transcription-Id": result.id, ...(replayed && { "Idempotent-Replayed": "true" }) };
  if ("json" in formatted) return json(formatted.json, { headers });
  return new Response(formatted.body, { headers: { "content-type": formatted.contentType, ...headers } });
}

/** An upload endpoint: the multipart form received, its fields checked, the recording transcribed and answered. */
export async function transcribeUpload<F extends z.ZodObject>({
  req,
  userId,
  form,
}: {
  req: Request;
  userId: string;
  form: UploadForm<F>;
}): Promise<Response> {
  const idempotencyKey = parseIdempotencyKey(req);
  const upload = await receiveUpload(req, { fileField: form.fileField, maxBytes: env().MAX_UPLOAD_BYTES, textFields: form.textFields });
  try {
    const fields = form.fields.safeParse(upload.fields);
    if (!fields.success) throw validationError(fields.error);
    const transcription = await transcribeAudio({ userId, upload, input: form.input(fields.data), idempotencyKey });
    return transcriptionResponse(transcription, form.format(transcription.result, fields.data));
  } finally {
    await upload.cleanup();
  }
}
