import { schemaRef } from "@/lib/openapi/json-schema.ts";
import { defineOperation, idParameter, pathsOf, type ApiArea } from "@/lib/openapi/operation.ts";
import { SUPPORTED_FORMATS_TEXT } from "@/lib/transcription/audio/audio-format.ts";
import {
  DictionarySuggestion,
  DictionarySuggestionList,
  DictionarySuggestionsQuery,
  DeleteTranscriptionQuery,
  EditTranscriptionInput,
  EditTranscriptionResult,
  ListTranscriptionsQuery,
  LiveRecording,
  AppendLiveAudioQuery,
  NoteAudio,
  OPENAI_STREAM_FORMATS,
  SearchMatch,
  TranscriptionListItem,
  Optimization,
  OptimizerProcessing,
  PROMPT_MAX,
  Recording,
  REQUEST_DICT_MAX,
  RESPONSE_FORMATS,
  TRANSCRIBE_STREAM_FORMATS,
  TranscriptionList,
  TranscriptionResult,
  TranscriptSegment,
  TranscriptWord,
  TIMESTAMP_GRANULARITIES,
} from "@/lib/transcription/schemas.ts";
import { TranscriptStreamErrorEvent, TranscriptTextDeltaEvent, TranscriptTextDoneEvent } from "@/lib/transcription/upload/stream-events.ts";
import { conflictWhen, KEY_KINDS } from "@/lib/idempotency/key-kinds.ts";
import { ActionItem, Insights, TickActionItemsInput } from "@/lib/insights/schemas.ts";

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

export const getTranscription = defineOperation({
  method: "get",
  path: "/api/v1/transcriptions/{id}",
  id: "getTranscription",
  tag,
  summary: "Read a transcription",
  description:
    "One of your transcriptions by the `id` POST /transcribe returned, with its timed segments and the state of its " +
    "AI optimization: poll it until `optimization.status` is `completed` (then `optimization.text` holds the " +
    "optimized transcript) or `failed` (`optimization.error` says why; `text` is still there).",
  scope: "transcribe",
  parameters: idParameter("The transcription's id."),
  responses: { 200: { description: "The transcription.", schema: TranscriptionResult } },
  errors: { not_found: "You have no transcription with this id." },
});

const AUDIO_BODY = { type: "string", format: "binary" };

export const getTranscriptionAudio = defineOperation({
  method: "get",
  path: "/api/v1/transcriptions/{id}/audio",
  id: "getTranscriptionAudio",
  tag,
  summary: "Play a note's recording",
  description:
    "The recording a transcription was made from, as kept after recognition: Opus in WebM at a speech bitrate " +
    "(about 9 MB per hour; `audio.content_type` and `audio.bytes` of the transcription say what to expect). " +
    "Owner only, by API key or the app's session. Supports `Range` (one range: `bytes=0-1023`, `bytes=1024-`, " +
    "`bytes=-500`; 206 with Content-Range; a range starting past the end is 416), `If-None-Match` (304) and " +
    "`If-Range`, so audio players can seek. A recording uploaded in parts has one per part (GET " +
    "/api/v1/recordings/{recording_id} lists them in order). Audio is not kept when the upload said " +
    "`keep_audio=false`, when the server keeps none (AUDIO_RETENTION_DAYS=0), or after the retention days.",
  scope: "transcribe",
  parameters: [
    { name: "id", in: "path", required: true, description: "The transcription's id.", schema: { type: "string" } },
    { name: "Range", in: "header", required: false, description: "One byte range, e.g. `bytes=0-`.", schema: { type: "string" } },
  ],
  responses: {
    200: { description: "The whole recording.", alternatives: { "audio/webm": AUDIO_BODY }, headers: ["Accept-Ranges", "ETag"] },
    206: { description: "The part of it the Range asked for.", alternatives: { "audio/webm": AUDIO_BODY }, headers: ["Accept-Ranges", "ETag", "Content-Range"] },
    304: { description: "Unchanged since the If-None-Match ETag.", headers: ["ETag"] },
  },
  errors: {
    not_found: "You have no transcription with this id, or its audio was not kept.",
    range_not_satisfiable: "The Range starts past the end of the recording (Content-Range: bytes */size says its size).",
  },
});

export const editTranscription = defineOperation({
  method: "patch",
  path: "/api/v1/transcriptions/{id}",
  id: "editTranscription",
  tag,
  summary: "Edit, rename, tag or pin a note",
  description:
    "Replaces `text` with your edit, and/or sets the note's `title` (null removes it), its `tags` (the whole list: " +
    "`{\"tags\": [\"work\", \"ideas\"]}`; [] removes them) and whether it is `pinned`. Tags and pin of a part of a " +
    "recording in parts are set on every part, as the recording is one note. Send the `updated_at` you last saw to be " +
    "protected from overwriting a newer edit of the text or title (409 edit_conflict); tags and pin do not change it. The AI-optimized text (`optimization.text`) is kept as it is. The answer carries " +
    "`dictionary_suggestions`: entries this edit suggests (\"cooper netties\" → \"Kubernetes\"), to offer for " +
    "POST /api/v1/dictionary/add.",
  scope: "transcribe",
  parameters: idParameter("The transcription's id."),
  body: EditTranscriptionInput,
  // 1,000,000 characters (UTF-16 units, as zod counts them) at 6 bytes each, plus room for the rest:
  // raw UTF-8 takes at most 3 a unit, but a JSON \uXXXX escape takes 6, and json.dumps (Python's
  // default, also sdk/python's) writes every non-ASCII character so: 4 MiB refused 700,000 CJK ones.
  maxBodyBytes: 6 * 1024 * 1024,
  responses: { 200: { description: "The edited transcription, with dictionary suggestions.", schema: EditTranscriptionResult } },
  errors: {
    not_found: "You have no transcription with this id.",
    edit_conflict: "The transcript changed after the updated_at you sent.",
    validation_failed:
      "Nothing to change was sent, text or title is too long, or a tag is empty, longer than 40 characters, holds , \" / \\ or a " +
      "control character, or there are more than 10 different tags; details names each one.",
  },
});

export const tickActionItems = defineOperation({
  method: "patch",
  path: "/api/v1/transcriptions/{id}/insights",
  id: "tickActionItems",
  tag,
  summary: "Tick a note's action items",
  description:
    "Ticks off (or unticks) action items of the note's `insights`, named by their text exactly as `insights.action_items` " +
    "carries it: `{\"action_items\": [{\"text\": \"Send the slides to Maria\", \"done\": true}]}`. Ticks are kept when the " +
    "insights are rewritten (after an edit of the text or a clean-up) for every item whose text is unchanged. Changes " +
    "`insights.updated_at`, not the note's `updated_at`. Answers the whole transcription.",
  scope: "transcribe",
  parameters: idParameter("The transcription's id."),
  body: TickActionItemsInput,
  responses: { 200: { description: "The transcription with its ticked insights.", schema: TranscriptionResult } },
  errors: {
    validation_failed: "action_items is missing, empty, longer than 20, or an item lacks its text or a boolean done.",
    not_found: "You have no transcription with this id.",
    unknown_action_item:
      "No action item of the note has this text (its insights were rewritten since you loaded them, or are not written yet); " +
      "reload the note and tick again. Nothing was ticked.",
  },
});

export const deleteTranscription = defineOperation({
  method: "delete",
  path: "/api/v1/transcriptions/{id}",
  id: "deleteTranscription",
  tag,
  summary: "Delete a note",
  description:
    "Deletes the transcription, its kept recording and its optimization (unless another upload of the same recording " +
    "shares it). Posts made from it are kept unless `with_posts=true`; a kept post still names the deleted note in " +
    "`source_transcription_id`. To tell the person how many posts a note has before asking, list them with " +
    "GET /api/v1/content/items?source_transcription_id={id}.",
  scope: "transcribe",
  parameters: idParameter("The transcription's id."),
  query: DeleteTranscriptionQuery,
  responses: { 204: { description: "Deleted (with its posts when with_posts=true). No body." } },
  errors: { not_found: "You have no transcription with this id (also when it was already deleted)." },
});

export const getDictionarySuggestions = defineOperation({
  method: "get",
  path: "/api/v1/transcriptions/{id}/dictionary-suggestions",
  id: "getDictionarySuggestions",
  tag,
  summary: "Dictionary entries suggested by your edits",
  description:
    "Compares the recognizer's own text with your current text word by word and proposes an entry for each short " +
    "replaced span that looks like a misrecognition (\"cooper netties\" → \"Kubernetes\"): at most 3 words each side, " +
    "sounding alike, in a sentence you otherwise kept. Never common words, wording changes, rewritten sentences or " +
    "case changes other than proper nouns; entries already in your dictionary are left out. Scope transcribe (not " +
    "dictionary:read), because the suggestions quote the transcript.",
  scope: "transcribe",
  parameters: idParameter("The transcription's id."),
  query: DictionarySuggestionsQuery,
  responses: { 200: { description: "The suggestions, most frequent first (empty when there are none).", schema: DictionarySuggestionList } },
  errors: { not_found: "You have no transcription with this id." },
});

export const getRecording = defineOperation({
  method: "get",
  path: "/api/v1/recordings/{recording_id}",
  id: "getRecording",
  tag,
  summary: "Read a recording uploaded in parts",
  description:
    "A long recording can be uploaded as several POST /transcribe calls that carry the same `recording_id` and " +
    "each its `recording_part`. This joins the parts received so far in part order (the first upload of each " +
    "part), with the combined optimization status and, once every part is optimized, the joined optimized text.",
  scope: "transcribe",
  parameters: [
    { name: "recording_id", in: "path", required: true, description: "The recording_id the parts were uploaded with.", schema: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" } },
  ],
  responses: { 200: { description: "The recording.", schema: Recording } },
  errors: { not_found: "You have uploaded no part of a recording with this id." },
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
    "still being recognized. After finish, `transcription_id` names the note.",
  scope: "transcribe",
  parameters: [LIVE_ID],
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

export const listTranscriptions = defineOperation({
  method: "get",
  path: "/api/v1/transcriptions",
  id: "listTranscriptions",
  tag,
  summary: "List or search transcriptions",
  description:
    "Your transcriptions, pinned ones first, then newest first, with their optimization status; follow `next_cursor` " +
    "for older ones. With `tag` (or `tag:` in `q`), only the notes with that tag. With " +
    "`q`, only the notes that match it (full-text search over titles, texts, your edits and the clean-ups; words " +
    "are matched whole, in any language, case aside), best match first, each with a highlighted `search.snippet`.",
  scope: "transcribe",
  query: ListTranscriptionsQuery,
  responses: { 200: { description: "A page of transcriptions.", schema: TranscriptionList } },
  errors: { validation_failed: "limit is out of range, q is longer than 200 characters, tag is not a valid tag, or cursor is not one this API returned." },
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
    TranscriptionResult,
    Insights,
    ActionItem,
    TickActionItemsInput,
    NoteAudio,
    TranscriptSegment,
    TranscriptWord,
    OptimizerProcessing,
    Optimization,
    TranscriptionList,
    TranscriptionListItem,
    SearchMatch,
    EditTranscriptionInput,
    EditTranscriptionResult,
    DictionarySuggestion,
    DictionarySuggestionList,
    Recording,
    LiveRecording,
    TranscriptTextDeltaEvent,
    TranscriptTextDoneEvent,
    TranscriptStreamErrorEvent,
  ],
  paths: pathsOf(
    transcribe, getTranscription, getTranscriptionAudio, editTranscription, tickActionItems, deleteTranscription, getDictionarySuggestions, getRecording, listTranscriptions,
    appendLiveAudio, getLiveRecording, finishLiveRecording,
    createOpenAiTranscription,
  ),
};
