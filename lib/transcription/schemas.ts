import { z } from "zod";
import { UpsertEntryInput } from "@/lib/dictionary/schemas.ts";

export const PROMPT_MAX = 2000;
export const REQUEST_DICT_MAX = 1000;
export const RESPONSE_FORMATS = ["json", "verbose_json", "text", "srt", "vtt"] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

/** The `dict` form field: a JSON array of dictionary entries, as text. */
const RequestDict = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      ctx.addIssue({ code: "custom", message: `is not valid JSON (${(err as Error).message})` });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(UpsertEntryInput, { error: "must be a JSON array of {misspelling, correct_spelling} objects" })
      .max(REQUEST_DICT_MAX, `must hold at most ${REQUEST_DICT_MAX} entries`),
  );

/** The text fields of POST /transcribe (the audio itself is streamed to disk separately). */
export const TranscribeFields = z.strictObject({
  prompt: z
    .string()
    .max(PROMPT_MAX, `must be at most ${PROMPT_MAX} characters`)
    .optional()
    .meta({ description: "Words and names to expect; whisper uses it as its initial prompt." }),
  dict: RequestDict.optional().meta({
    description: `JSON array (as text) of up to ${REQUEST_DICT_MAX} {misspelling, correct_spelling} entries, applied on top of your stored dictionary (these win).`,
  }),
  response_format: z.enum(RESPONSE_FORMATS).default("json"),
  language: z
    .string()
    .regex(/^[a-z]{2,3}$/, "must be an ISO 639-1 code such as en")
    .optional()
    .meta({ description: "The spoken language, if known (whisper detects it otherwise)." }),
});
export type TranscribeFields = z.output<typeof TranscribeFields>;
export const TRANSCRIBE_TEXT_FIELDS = Object.keys(TranscribeFields.shape);

/** The text fields of the OpenAI-compatible POST /v1/audio/transcriptions (the audio is `file`). */
export const OpenAiTranscriptionFields = z.strictObject({
  model: z.string().max(200).meta({ description: "Accepted for compatibility; the server's configured recognizer is used." }),
  prompt: TranscribeFields.shape.prompt,
  language: TranscribeFields.shape.language,
  response_format: TranscribeFields.shape.response_format,
  temperature: z.coerce.number().min(0).max(1).optional().meta({ description: "Accepted for compatibility; ignored." }),
});
export type OpenAiTranscriptionFields = z.output<typeof OpenAiTranscriptionFields>;
export const OPENAI_TEXT_FIELDS = Object.keys(OpenAiTranscriptionFields.shape);

export const TranscriptSegment = z
  .object({ start: z.number(), end: z.number(), text: z.string() })
  .meta({ id: "TranscriptSegment", description: "Seconds from the start of the recording." });

export const TranscriptionResult = z
  .object({
    id: z.string().meta({ description: "Read it again with GET /api/v1/transcriptions/{id}." }),
    created_at: z.iso.datetime(),
    text: z.string().meta({ description: "The transcript, corrected with your dictionary." }),
    language: z.string(),
    duration: z.number().meta({ description: "Length of the recording in seconds." }),
    engine: z.string().meta({ description: "The recognizer that produced the transcript." }),
    dictionary_replacements: z.number().int().meta({ description: "How many spans the dictionary changed." }),
    segments: z
      .array(TranscriptSegment)
      .optional()
      .meta({ description: "With response_format=verbose_json and from GET /api/v1/transcriptions/{id}." }),
  })
  .meta({ id: "TranscriptionResult" });
export type TranscriptionResult = z.output<typeof TranscriptionResult>;

/** The Idempotency-Key header: a retried upload with the same key replays the first result. */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, "must be 1–255 visible ASCII characters")
  .optional();

export const TranscriptionIdParams = z.strictObject({ id: z.string().min(1).max(64) });
