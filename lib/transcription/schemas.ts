// What a recording is sent with: the upload's fields (ours, and OpenAI's dialect) and a live recording.
// The note it becomes is in lib/notes/schemas.ts.

import { z } from "zod";
import { decimalText, integerText } from "@/lib/http/integer-text.ts";
import { UpsertEntryInput } from "@/lib/dictionary/schemas.ts";
import { unsafeTextPath } from "@/lib/http/parse.ts";

export const PROMPT_MAX = 2000;
export const REQUEST_DICT_MAX = 1000;
export const RESPONSE_FORMATS = ["json", "verbose_json", "text", "srt", "vtt"] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];
/** The formats a streamed answer can end with (OpenAI streams json and text; /transcribe also its verbose_json). */
export const OPENAI_STREAM_FORMATS: readonly ResponseFormat[] = ["json", "text"];
export const TRANSCRIBE_STREAM_FORMATS: readonly ResponseFormat[] = ["json", "verbose_json", "text"];

/** The `dict` form field: a JSON array of dictionary entries, as text. */
const RequestDict = z
  .string()
  .transform((text, ctx) => {
    try {
      const value = JSON.parse(text) as unknown;
      // A \uD800 escape decodes to a lone surrogate that the field's own text check never saw.
      const unsafe = unsafeTextPath(value);
      if (unsafe !== undefined) {
        ctx.addIssue({ code: "custom", message: `must not contain NUL characters or unpaired surrogates (${unsafe})` });
        return z.NEVER;
      }
      return value;
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

export const TIMESTAMP_GRANULARITIES = ["word", "segment"] as const;

/**
 * OpenAI's `timestamp_granularities[]` (repeated: one value per field, which the upload joins with
 * commas), also accepted as `timestamp_granularities` with comma-separated values.
 */
const TimestampGranularities = z
  .string()
  .transform((text) => text.split(",").map((value) => value.trim()))
  .pipe(
    z.array(z.enum(TIMESTAMP_GRANULARITIES, { error: "must be word or segment (send the field once per value)" })),
  )
  .optional()
  .meta({
    description:
      "word: verbose_json also returns `words` [{word, start, end}], every word with its time; segment: the segments " +
      "(always returned). Repeat the field for both (OpenAI's parameter). Only with response_format verbose_json.",
  });

/** The timestamp_granularities fields of both upload forms, under both spellings. */
const TIMESTAMP_FIELDS = { "timestamp_granularities[]": TimestampGranularities, timestamp_granularities: TimestampGranularities };
type TimestampFields = { "timestamp_granularities[]"?: string[]; timestamp_granularities?: string[] };

/** Whether a request asks for word timings (`timestamp_granularities[]=word`). */
export function wantsWords(fields: TimestampFields): boolean {
  return [...(fields["timestamp_granularities[]"] ?? []), ...(fields.timestamp_granularities ?? [])].includes("word");
}

/** Timestamp granularities only make sense with verbose_json (OpenAI refuses them otherwise too). */
function checkTimestampFormat(ctx: z.core.ParsePayload<TimestampFields & { response_format: ResponseFormat }>): void {
  for (const path of ["timestamp_granularities[]", "timestamp_granularities"] as const) {
    if (ctx.value[path] !== undefined && ctx.value.response_format !== "verbose_json") {
      ctx.issues.push({ code: "custom", input: ctx.value, path: [path], message: "needs response_format verbose_json" });
    }
  }
}

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
  recording_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1–64 letters, digits, _ or -")
    .optional()
    .meta({ description: "Your id for a recording uploaded in parts; GET /api/v1/recordings/{recording_id} joins them." }),
  recording_part: integerText((n) => n.min(0).max(9999))
    .optional()
    .meta({ description: "The part's position in the recording, from 0." }),
  keep_audio: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .optional()
    .transform((value) => value !== "false")
    .meta({
      description:
        "false: keep no copy of this recording's audio (the text is kept). Default true, unless the server keeps none " +
        "(AUDIO_RETENTION_DAYS=0): the recording is kept compressed and served by GET /api/v1/transcriptions/{id}/audio.",
    }),
  recorded_at: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: "When the recording was made (a phone uploading later says so); shown as the note's time." }),
  ...TIMESTAMP_FIELDS,
}).check(checkTimestampFormat).check((ctx) => {
  if ((ctx.value.recording_id === undefined) !== (ctx.value.recording_part === undefined)) {
    const path = ctx.value.recording_id === undefined ? "recording_id" : "recording_part";
    ctx.issues.push({ code: "custom", input: ctx.value, path: [path], message: "recording_id and recording_part go together" });
  }
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
  stream: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .optional()
    .transform((value) => value === "true")
    .meta({ description: "true: answer text/event-stream (transcript.text.delta events, then transcript.text.done)." }),
  ...TIMESTAMP_FIELDS,
}).check(checkTimestampFormat);
export type OpenAiTranscriptionFields = z.output<typeof OpenAiTranscriptionFields>;
export const OPENAI_TEXT_FIELDS = Object.keys(OpenAiTranscriptionFields.shape);

export const LIVE_RECORDING_STATUSES = ["recording", "done"] as const;

export const LiveRecording = z
  .object({
    id: z.string(),
    status: z.enum(LIVE_RECORDING_STATUSES).meta({
      description: "recording: audio may still arrive; done: POST …/finish made the note (transcription_id).",
    }),
    bytes_received: z.number().int().meta({ description: "How many bytes of the recording the server holds: the offset of the next PATCH." }),
    heard_seconds: z.number().meta({ description: "Seconds of the recording already cut into pieces and sent to the recognizer." }),
    pieces: z.array(
      z.object({
        start: z.number(),
        end: z.number(),
        text: z.string().nullable().meta({ description: "The piece's text, corrected with your dictionary; null until it is recognized." }),
      }),
    ),
    text: z.string().meta({ description: "The recognized pieces' texts joined in order, up to the first piece still being recognized: the live caption." }),
    provisional_text: z.string().meta({
      description:
        "The words heard after `text` so far, each phrase as soon as the speaker paused after it, then the guess at the phrase being spoken, renewed every half second of speech where the server's stream recognizer makes one (corrected with your dictionary); provisional: a phrase's guess is replaced by its words when it ends, and those by the pieces' text once they are recognized. Empty when there are none, or when this server has no stream recognizer for the recording (whisper, or LIVE_CAPTION_STREAMS taken).",
    }),
    provisional_until: z.number().nullable().meta({ description: "Where in the recording (seconds) `provisional_text` reaches: the end of its last word, or, while a phrase is being spoken, how much of it was heard for the guess; null when it is empty." }),
    transcription_id: z.string().nullable().meta({ description: "The note made by finish, once status is done." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({
    id: "LiveRecording",
    description: "A recording sent while it is made: its audio so far, cut at pauses into pieces that are recognized as they arrive.",
  });
export type LiveRecording = z.output<typeof LiveRecording>;

/** The longest GET …/live-recordings/{id} holds its answer for new captions. */
export const CAPTIONS_WAIT_MAX_SECONDS = 25;

export const GetLiveRecordingQuery = z.strictObject({
  captions_after: decimalText()
    .optional()
    .meta({
      description:
        "Wait for captions past this point (seconds into the recording: the last answer's `provisional_until`, or the end of its last " +
        "recognized piece): the answer comes as soon as a phrase is heard or a piece recognized, when the recording is finished, or after `wait` seconds.",
    }),
  wait: integerText((n) => n.min(0).max(CAPTIONS_WAIT_MAX_SECONDS))
    .optional()
    .meta({ description: `With captions_after: the most seconds to hold the answer (default 20, at most ${CAPTIONS_WAIT_MAX_SECONDS}).` }),
});

export const AppendLiveAudioQuery = z.strictObject({
  offset: integerText((n) => n.min(0)).meta({ description: "The byte offset of this body in the recording: bytes_received of the last answer (0 for the first)." }),
  recorded_at: z.iso.datetime({ offset: true }).optional().meta({ description: "When the recording started (first PATCH only); default now." }),
});
