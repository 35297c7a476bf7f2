import { schemaRef } from "@/lib/openapi/json-schema.ts";
import { defineOperation, pathsOf, type ApiArea } from "@/lib/openapi/operation.ts";
import { SUPPORTED_FORMATS_TEXT } from "@/lib/transcription/audio/audio-format.ts";
import { LiveRecording, AppendLiveAudioQuery, GetLiveRecordingQuery, OPENAI_STREAM_FORMATS, PROMPT_MAX, REQUEST_DICT_MAX, RESPONSE_FORMATS, TRANSCRIBE_STREAM_FORMATS, TIMESTAMP_GRANULARITIES } from "@/lib/transcription/schemas.ts";
import { TranscriptionResult } from "@/lib/notes/schemas.ts";
import { NOTE_OPERATIONS, NOTE_SCHEMAS } from "@/lib/notes/contracts.ts";
import { TranscriptStreamErrorEvent, TranscriptTextDeltaEvent, TranscriptTextDoneEvent } from "@/lib/transcription/upload/stream-events.ts";
import { conflictWhen, KEY_KINDS } from "@/lib/idempotency/key-kinds.ts";

const tag = "Transcription";

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: false,
  description:
    "Any unique string (1–255 visible ASCII characters), e.g. a UUID per recording. A retry with the same key and the " +
    "same recording and options returns the first result (header Idempotent-Replayed: true) without transcribing " +
    "again; the same key with a different recording or options is 409 idempotency_conflict.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

/** What both upload endpoints can answer besides the errors every multipart endpoint has. */
const UPLOAD_ERRORS = {
  validation_failed: "A field is unknown, repeated or invalid, or the Idempotency-Key header is malformed; details names each one.",
  idempotency_conflict: conflictWhen(KEY_KINDS.upload),
  payload_too_large: "The upload is larger than the limit, which the message names.",
  audio_too_long: "The recording is longer than the limit, which the message names.",
  audio_quota_exceeded: "The account keeps as much audio as the server's quota (AUDIO_QUOTA_MB) allows; delete notes to make room, or send keep_audio=false (the text is kept, the audio not).",
  unsupported_audio: `The file is not audio in a supported format (${SUPPORTED_FORMATS_TEXT}).`,
  unreadable_audio: "The file looks like audio but cannot be decoded (truncated or corrupt).",
  empty_audio: "The file is empty, or its audio is shorter than 0.1 s.",
  no_speech: "The recording is silent.",
  language_unsupported: "The `language` asked for is one the installed recognizer cannot recognize (PocketSphinx and English-only whisper models know English only); the message says what to install.",
  engine_unavailable: "No recognizer is installed or configured; the message says how to install one.",
  engine_busy: "Too many recordings are waiting; retry after the Retry-After seconds.",
  engine_failed: "The configured OpenAI-compatible server failed.",
};

/** With response_format text, srt or vtt the body is text of that kind. */
const TEXT_FORMATS = {
  "text/plain": { type: "string" },
  "application/x-subrip": { type: "string" },
  "text/vtt": { type: "string" },
};

/** A streamed answer: server-sent events, each one `data: <json>` line (the events are in `x-sse-data`). */
const EVENT_STREAM = {
  type: "string",
  description:
    "Server-sent events. A `: keep-alive` comment at once and every 15 s; one `transcript.text.delta` per finished " +
    "piece of the recording, in order; then `transcript.text.done` with the whole text and the transcription's `id` " +
    "(a stream cannot carry X-Transcription-Id or Idempotent-Replayed), or an `error` event; then the stream ends.",
  "x-sse-data": { oneOf: [schemaRef(TranscriptTextDeltaEvent), schemaRef(TranscriptTextDoneEvent), schemaRef(TranscriptStreamErrorEvent)] },
  examples: [
    ': keep-alive\n\ndata: {"type":"transcript.text.delta","delta":"and so my fellow Americans"}\n\n' +
      'data: {"type":"transcript.text.delta","delta":" ask not what your country can do for you"}\n\n' +
      'data: {"type":"transcript.text.done","text":"and so my fellow Americans ask not what your country can do for you","id":"…"}\n\n',
  ],
};

/** How a stream behaves, for both upload endpoints' descriptions. */
const STREAMING =
  "Validation, an upload that is not audio, the key and the limits on the upload are refused with the usual JSON " +
  "error before the stream begins; what fails later (no_speech, unreadable_audio, engine_busy, idempotency_conflict, " +
  "rate_limited for the hourly audio seconds, …) arrives as an `error` event `{type: \"error\", error: {code, " +
  "message, request_id, status}}` (status: what the request would have answered) and ends the stream. A client that disconnects does not stop the work: it is stored, and a " +
  "retry with the same Idempotency-Key replays it (streamed too: the whole text as one delta, then done).";

/** OpenAI's timestamp_granularities[] (a repeated field), and the same as one comma-separated field. */
const TIMESTAMP_GRANULARITY_FIELDS = {
  "timestamp_granularities[]": {
    type: "array",
    items: { type: "string", enum: [...TIMESTAMP_GRANULARITIES] },
    description:
      "Only with response_format verbose_json (else 400 validation_failed). `word`: the answer also has `words` " +
      "[{word, start, end}], every word with its time in seconds (a phrase your dictionary replaced is one word spanning " +
      "the words it replaced); `segment`: the segments, which verbose_json always has. Send the field once per value.",
  },
  timestamp_granularities: { type: "string", description: "The same as timestamp_granularities[], comma-separated: `word,segment`." },
};

const TRANSCRIBE_FORM = {
  type: "object",
  required: ["audio"],
  additionalProperties: false,
  properties: {
    audio: {
      type: "string",
      contentMediaType: "application/octet-stream",
      description: `The recording: ${SUPPORTED_FORMATS_TEXT}. The format is read from the bytes, not the file name. The field is \`audio\`; \`file\` is refused.`,
    },
    prompt: { type: "string", maxLength: PROMPT_MAX, description: "Words and names to expect (whisper's initial prompt)." },
    dict: {
      type: "string",
      contentMediaType: "application/json",
      description: `A JSON array of up to ${REQUEST_DICT_MAX} {"misspelling", "correct_spelling"} objects, applied on top of your stored dictionary; for the same misspelling, these win.`,
      examples: ['[{"misspelling": "cooper netties", "correct_spelling": "Kubernetes"}]'],
    },
    response_format: { type: "string", enum: [...RESPONSE_FORMATS], default: "json" },
    language: { type: "string", pattern: "^[a-z]{2,3}$", description: "ISO 639-1 code of the spoken language, if known." },
    recording_id: {
      type: "string",
      pattern: "^[A-Za-z0-9_-]{1,64}$",
      description: "Your id for a recording uploaded in parts (with recording_part); read it joined with GET /api/v1/recordings/{recording_id}.",
    },
    recording_part: { type: "integer", minimum: 0, maximum: 9999, description: "The part's position in the recording, from 0 (with recording_id)." },
    keep_audio: {
      type: "string",
      enum: ["true", "false"],
      default: "true",
      description:
        "false: keep no copy of this recording's audio (the text is kept). Otherwise it is kept compressed (unless the server keeps none: AUDIO_RETENTION_DAYS=0) and served by GET /api/v1/transcriptions/{id}/audio.",
    },
    recorded_at: { type: "string", format: "date-time", description: "When the recording was made (a phone uploading later says so); shown as the note's time (recorded_at)." },
    ...TIMESTAMP_GRANULARITY_FIELDS,
  },
};

const OPENAI_FORM = {
  type: "object",
  required: ["file", "model"],
  additionalProperties: false,
  properties: {
    file: { type: "string", contentMediaType: "application/octet-stream", description: "The recording (any supported format)." },
    model: { type: "string", description: "Accepted for compatibility; the server's configured recognizer is used." },
    prompt: TRANSCRIBE_FORM.properties.prompt,
    language: TRANSCRIBE_FORM.properties.language,
    response_format: TRANSCRIBE_FORM.properties.response_format,
    temperature: { type: "number", minimum: 0, maximum: 1, description: "Accepted for compatibility; ignored." },
    stream: {
      type: "string",
      enum: ["true", "false"],
      default: "false",
      description: `true: answer text/event-stream as OpenAI does (response_format ${OPENAI_STREAM_FORMATS.join(" or ")}; others are 400 validation_failed).`,
    },
    ...TIMESTAMP_GRANULARITY_FIELDS,
  },
};

export const transcribe = defineOperation({
  method: "post",
  path: "/transcribe",
  id: "transcribe",
  tag,
  summary: "Transcribe a recording",
  description:
    "Upload a recording as multipart/form-data in the field `audio`. It is decoded to 16 kHz mono, recognized, " +
    "and corrected with your dictionary merged with the request's `dict`. Limits: 200 MB and 2 hours unless the " +
    "server is configured otherwise (MAX_UPLOAD_BYTES, MAX_AUDIO_SECONDS).\n\n" +
    "AI optimization (punctuation, casing, filler words, paragraphs, your dictionary again) is reported in " +
    "`optimization` with its diagnostic ids in `optimizer_processing`. Recordings up to the background threshold " +
    "(OPTIMIZE_BACKGROUND_SECONDS, default 120 s) come back optimized (`completed`); longer ones return `text` at " +
    "once with status `pending` or `running`, and are improved chunk by chunk in the background: follow " +
    "`progress` and read `optimization.text` with GET /api/v1/transcriptions/{id}. A retried upload of the same " +
    "audio with the same prompt and dict keeps the same `optimizer_workflow_id` and never starts a second optimization.\n\n" +
    "**Streaming:** send `Accept: text/event-stream` to get the text as it is recognized: `transcript.text.delta` " +
    "events, then `transcript.text.done` carrying every field of the answer without a stream (so `optimizer_processing` " +
    `too), for response_format ${TRANSCRIBE_STREAM_FORMATS.join(", ")} (srt and vtt are 400 validation_failed). ${STREAMING}`,
  scope: "transcribe",
  parameters: [IDEMPOTENCY_KEY],
  multipart: TRANSCRIBE_FORM,
  responses: {
    200: {
      description:
        "The transcript. With response_format text, srt or vtt the body is plain text of that kind; with Accept: " +
        "text/event-stream, server-sent events.",
      schema: TranscriptionResult,
      alternatives: { ...TEXT_FORMATS, "text/event-stream": EVENT_STREAM },
    },
  },
  errors: { ...UPLOAD_ERRORS, missing_audio: 'There is no file in the field "audio" (for example it was sent as "file").' },
});

const LIVE_ID = {
  name: "id",
  in: "path" as const,
  required: true,
  description: "Your id for the recording (e.g. a UUID made when recording starts).",
  schema: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" },
};

/** The largest body of one PATCH: a few seconds of audio is usual; an offline backlog is sent in pieces of this size. */
export const LIVE_BODY_MAX_BYTES = 8 * 1024 * 1024;

export const appendLiveAudio = defineOperation({
  method: "patch",
  path: "/api/v1/live-recordings/{id}",
  id: "appendLiveAudio",
  tag,
  summary: "Send a recording while it is made",
  description:
    "Recognize while the person speaks: send the recording's bytes as the recorder writes them (WebM/Opus, " +
    "Ogg/Opus, MP4/AAC or WAV; e.g. MediaRecorder's chunk every second), each PATCH with the byte `offset` it " +
    "starts at. The first (offset 0) creates the live recording. The server cuts what arrives at pauses, a few " +
    "seconds of speech at a time, and recognizes each piece at once (below the priority of requests), so after " +
    "Stop only the last seconds are left: then POST …/finish makes the note.\n\n" +
    "Bytes the server already holds are skipped, so a retried PATCH is harmless; a body that starts past " +
    "`bytes_received` is 409 offset_mismatch (send from `bytes_received`). The answer is the recording with its " +
    "captions so far (`text`, `pieces`).\n\n" +
    "Limits: an account may have LIVE_RECORDINGS_OPEN_MAX live recordings open at once (3 unless configured); one " +
    "more is 429 too_many_live_recordings (send that recording whole with POST /transcribe when it ends). A " +
    "recording no audio reaches for LIVE_RECORDING_IDLE_MINUTES (10) no longer counts: the server finishes it into " +
    "a note. New bytes are kept only when they continue the recording as audio (else 415 unsupported_audio, and " +
    "nothing of them is kept) and fit the account's audio quota (else 413 audio_quota_exceeded).",
  scope: "transcribe",
  parameters: [LIVE_ID],
  query: AppendLiveAudioQuery,
  binary: {
    mediaTypes: ["audio/webm", "audio/ogg", "audio/mp4", "audio/wav", "application/octet-stream"],
    maxBytes: LIVE_BODY_MAX_BYTES,
    description: "The next bytes of the recording, from `offset`.",
  },
  responses: {
    201: { description: "The live recording was created with this first audio.", schema: LiveRecording },
    200: { description: "The audio was added (or was already here).", schema: LiveRecording },
  },
  errors: {
    offset_mismatch: "The body starts past the bytes the server holds (or another request appended first); the message and details name the offset to send from.",
    recording_finished: "The recording is finished (POST …/finish); it takes no more audio.",
    unsupported_audio:
      "The first bytes are not WebM, Ogg, MP4 or WAV audio as a recorder writes it, or the new bytes do not continue the " +
      "recording as audio (more than 256 KiB after its last audio packet); none of them is kept.",
    empty_audio: "The first PATCH has no bytes.",
    payload_too_large: `The body is larger than ${LIVE_BODY_MAX_BYTES} bytes, or the recording would exceed the upload limit.`,
    audio_quota_exceeded: "Keeping these bytes would pass the account's audio quota (AUDIO_QUOTA_MB); none of them is kept. Finish the recording, or delete notes to make room.",
    too_many_live_recordings:
      "The first PATCH of a new recording while the account has LIVE_RECORDINGS_OPEN_MAX open ones (each with audio in the " +
      "last LIVE_RECORDING_IDLE_MINUTES); Retry-After says when the oldest goes idle. Finish one, or send this recording whole (POST /transcribe).",
    language_unsupported: UPLOAD_ERRORS.language_unsupported,
    engine_unavailable: UPLOAD_ERRORS.engine_unavailable,
  },
});

export const getLiveRecording = defineOperation({
  method: "get",
  path: "/api/v1/live-recordings/{id}",
  id: "getLiveRecording",
  tag,
  summary: "Read a live recording's captions",
  description:
    "How much of the recording the server holds (`bytes_received`: where to resume after a lost connection) and " +
    "its captions so far: each piece's text once recognized, and `text`, the pieces joined up to the first one " +
    "still being recognized; after them, `provisional_text`: the words heard as each phrase ended, until their piece is " +
    "recognized, and a guess at the phrase being spoken, renewed every half second of speech. After finish, " +
    "`transcription_id` names the note.\n\n" +
    "Captions as they come: with `captions_after` (the point the captions on screen reach), the answer waits until " +
    "they reach past it (a phrase heard, a piece recognized), the recording is finished, or `wait` seconds have " +
    "passed; ask again with the new point. A phone sending its audio with PATCH shows the words being said within " +
    "a second or two, and each phrase's own words about a second after the speaker pauses.",
  scope: "transcribe",
  parameters: [LIVE_ID],
  query: GetLiveRecordingQuery,
  responses: { 200: { description: "The live recording.", schema: LiveRecording } },
  errors: { not_found: "You have no live recording with this id." },
});

export const finishLiveRecording = defineOperation({
  method: "post",
  path: "/api/v1/live-recordings/{id}/finish",
  id: "finishLiveRecording",
  tag,
  summary: "Stop: make the live recording a note",
  description:
    "The audio after the last piece becomes the last piece; once every piece is recognized, they are joined in " +
    "order into one transcription, saved like an upload's (dictionary, clean-up, insights, the kept recording). " +
    "Answers it as POST /transcribe does (JSON). Finishing again answers the same note (200); only one note is " +
    "ever made of a live recording.",
  scope: "transcribe",
  parameters: [LIVE_ID],
  responses: {
    201: { description: "The note made of the recording.", schema: TranscriptionResult },
    200: { description: "It was finished before: the same note.", schema: TranscriptionResult },
  },
  errors: {
    not_found: "You have no live recording with this id (or its note was deleted).",
    empty_audio: "The live recording holds no audio.",
    no_speech: "No speech was heard in the whole recording.",
    unreadable_audio: UPLOAD_ERRORS.unreadable_audio,
    audio_too_long: UPLOAD_ERRORS.audio_too_long,
    engine_unavailable: UPLOAD_ERRORS.engine_unavailable,
    engine_busy: UPLOAD_ERRORS.engine_busy,
    engine_failed: "The recognizer failed on a piece; finishing again cuts and recognizes the recording anew.",
  },
});

export const createOpenAiTranscription = defineOperation({
  method: "post",
  path: "/v1/audio/transcriptions",
  id: "createOpenAiTranscription",
  tag,
  summary: "Transcribe (OpenAI-compatible)",
  description:
    "The same pipeline as POST /transcribe (your stored dictionary applies) behind OpenAI's request and response " +
    "shapes, so OpenAI SDKs and tools work with base URL `<server>/v1` and a Voicedraft key. json returns " +
    "`{text}`; verbose_json returns `{task, language, duration, text, segments[{id, start, end, text}]}`, plus `words[{word, start, end}]` with " +
    "`timestamp_granularities[]=word`.\n\n" +
    "**Streaming:** `stream=true` answers text/event-stream in OpenAI's format (`transcript.text.delta` per finished " +
    "piece, then `transcript.text.done` with `text` and the transcription's `id`), so `client.audio.transcriptions" +
    `.create({ ..., stream: true })\` works. ${STREAMING}`,
  scope: "transcribe",
  parameters: [IDEMPOTENCY_KEY],
  multipart: OPENAI_FORM,
  responses: {
    200: {
      description: "The transcript in the requested response_format; with stream=true, server-sent events.",
      schema: { type: "object", required: ["text"], properties: { text: { type: "string" } } },
      alternatives: { ...TEXT_FORMATS, "text/event-stream": EVENT_STREAM },
    },
  },
  errors: { ...UPLOAD_ERRORS, missing_audio: 'There is no file in the field "file".' },
});

export const transcriptionArea: ApiArea = {
  tag: {
    name: tag,
    description:
      "Recordings to text with a real speech recognizer (whisper, PocketSphinx, or an OpenAI-compatible server), " +
      "corrected with your dictionary.",
  },
  schemas: [
    ...NOTE_SCHEMAS,
    LiveRecording,
    TranscriptTextDeltaEvent,
    TranscriptTextDoneEvent,
    TranscriptStreamErrorEvent,
  ],
  paths: pathsOf(
    transcribe, ...NOTE_OPERATIONS,
    appendLiveAudio, getLiveRecording, finishLiveRecording,
    createOpenAiTranscription,
  ),
};
