// Every HTTP operation this client calls, in one table: the client builds its requests from it,
// and test/openapi-sync.test.ts checks each row against GET /api/v1/openapi.json (method, path,
// the request fields sent and the response fields read). Nested fields are dotted; `[]` steps
// into array items.

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

export type Operation = {
  method: HttpMethod;
  /** The OpenAPI path template, e.g. /api/v1/transcriptions/{id}. */
  path: string;
  query?: readonly string[];
  headers?: readonly string[];
  /** Fields of the request body (JSON, or multipart/form-data when `multipart`). */
  body?: readonly string[];
  multipart?: boolean;
  /** Fields of the success response the client's types declare. */
  response: readonly string[];
  /**
   * Whether repeating the call cannot do anything twice, so timeouts, network errors, 429 and 503
   * are retried: reads, upserts, uploads with an Idempotency-Key, and creation keyed by client_request_id.
   */
  retrySafe: boolean;
};

const TRANSCRIPTION_FIELDS = [
  "id",
  "created_at",
  "text",
  "language",
  "duration",
  "engine",
  "updated_at",
  "dictionary_replacements",
  "segments[].start",
  "segments[].end",
  "segments[].text",
  "words[].word",
  "words[].start",
  "words[].end",
  "optimizer_processing.optimizer_workflow_name",
  "optimizer_processing.optimizer_workflow_id",
  "optimizer_processing.optimizer_call_id",
  "optimizer_processing.optimizer_execution_id",
  "optimization.status",
  "optimization.optimizer",
  "optimization.mode",
  "optimization.progress.chunks_done",
  "optimization.progress.chunks_total",
  "optimization.text",
  "optimization.error.code",
  "optimization.error.message",
  "optimization.completed_at",
  "recording.id",
  "recording.part",
  "title",
  "recorded_at",
  "audio.url",
  "audio.content_type",
  "audio.bytes",
] as const;

const SUGGESTION_FIELDS = ["misspelling", "correct_spelling", "occurrences"].map((f) => `dictionary_suggestions[].${f}`);

const ENTRY_FIELDS = (prefix: string) => fields(prefix, ["misspelling", "correct_spelling", "created_at", "updated_at"]);

const fields = (prefix: string, names: string[]) => names.map((f) => `${prefix}.${f}`);
const CHANNEL_FIELDS = (prefix: string) => fields(prefix, ["id", "platform", "name", "active", "default_preset_id", "created_at", "updated_at"]);
const PRESET_FIELDS = (prefix: string) =>
  fields(prefix, ["id", "built_in", "name", "tone", "length", "format", "hashtags", "include_title", "created_at", "updated_at"]);
const ITEM_FIELDS = (prefix: string) =>
  fields(prefix, [
    "id",
    "kind",
    "master_id",
    "title",
    "body",
    "content_hash",
    "version",
    "source_transcription_id",
    "source_text_kind",
    "channel_id",
    "preset_id",
    "posts",
    "source.content_hash",
    "source.version",
    ...["task_id", "state", "generator", "error", "created_at", "finished_at", "set_aside.content_hash"].map((f) => `generation.${f}`),
    "approval.state",
    "approval.approved_hash",
    "approval.approved_at",
    "freshness",
    "created_at",
    "updated_at",
  ]);
const DELIVERY_FIELDS = (prefix: string) =>
  fields(prefix, ["id", "item_id", "method", "state", "content_hash", "published_url", "created_at", "updated_at"]);

export const OPERATIONS = {
  transcribe: {
    method: "POST",
    path: "/transcribe",
    headers: ["Idempotency-Key"],
    multipart: true,
    body: ["audio", "prompt", "dict", "response_format", "language", "recording_id", "recording_part", "keep_audio", "recorded_at", "timestamp_granularities"],
    response: TRANSCRIPTION_FIELDS,
    retrySafe: true,
  },
  getTranscription: {
    method: "GET",
    path: "/api/v1/transcriptions/{id}",
    response: TRANSCRIPTION_FIELDS,
    retrySafe: true,
  },
  getRecording: {
    method: "GET",
    path: "/api/v1/recordings/{recording_id}",
    response: [
      ...["part", "transcription_id", "text", "duration", "optimization_status"].map((f) => `parts[].${f}`),
      "parts_received",
      "text",
      "duration",
      "optimization.status",
      "optimization.progress.chunks_done",
      "optimization.progress.chunks_total",
      "optimization.text",
      "created_at",
      "updated_at",
    ],
    retrySafe: true,
  },
  listTranscriptions: {
    method: "GET",
    path: "/api/v1/transcriptions",
    query: ["limit", "cursor", "q"],
    response: [
      ...TRANSCRIPTION_FIELDS.filter((f) => !f.startsWith("segments") && !f.startsWith("words")).map((f) => `transcriptions[].${f}`),
      "transcriptions[].search.rank",
      "transcriptions[].search.snippet[].text",
      "transcriptions[].search.snippet[].match",
      "next_cursor",
    ],
    retrySafe: true,
  },
  editTranscription: {
    method: "PATCH",
    path: "/api/v1/transcriptions/{id}",
    body: ["text", "title", "updated_at"],
    response: [...TRANSCRIPTION_FIELDS, ...SUGGESTION_FIELDS],
    // With updated_at, a repeat after a lost response would be refused as an edit conflict.
    retrySafe: false,
  },
  getTranscriptionAudio: {
    method: "GET",
    path: "/api/v1/transcriptions/{id}/audio",
    headers: ["Range"],
    response: [],
    retrySafe: true,
  },
  deleteTranscription: {
    method: "DELETE",
    path: "/api/v1/transcriptions/{id}",
    query: ["with_posts"],
    response: [],
    // A repeat after a lost response would answer 404 for a note that was in fact deleted.
    retrySafe: false,
  },
  getSettings: {
    method: "GET",
    path: "/api/v1/settings",
    response: ["language", "recognizer.languages", "recognizer.hint", "recognizer.language_supported"],
    retrySafe: true,
  },
  updateSettings: {
    method: "PATCH",
    path: "/api/v1/settings",
    body: ["language"],
    response: ["language", "recognizer.languages", "recognizer.hint", "recognizer.language_supported"],
    retrySafe: true,
  },
  exportUserData: {
    method: "GET",
    path: "/api/v1/export",
    response: [],
    retrySafe: true,
  },
  getDictionarySuggestions: {
    method: "GET",
    path: "/api/v1/transcriptions/{id}/dictionary-suggestions",
    query: ["limit"],
    response: SUGGESTION_FIELDS,
    retrySafe: true,
  },
  listDictionary: {
    method: "GET",
    path: "/api/v1/dictionary",
    query: ["limit", "cursor"],
    response: [...ENTRY_FIELDS("entries[]"), "next_cursor"],
    retrySafe: true,
  },
  addDictionaryEntry: {
    method: "POST",
    path: "/api/v1/dictionary/add",
    body: ["misspelling", "correct_spelling"],
    response: [...ENTRY_FIELDS("entry"), "created"],
    retrySafe: true,
  },
  deleteDictionaryEntry: {
    method: "DELETE",
    path: "/api/v1/dictionary/delete",
    query: ["misspelling"],
    response: ENTRY_FIELDS("deleted"),
    // A repeat after a lost response would answer 404 for an entry that was in fact deleted.
    retrySafe: false,
  },
  listChannels: {
    method: "GET",
    path: "/api/v1/channels",
    response: CHANNEL_FIELDS("channels[]"),
    retrySafe: true,
  },
  createChannel: {
    method: "POST",
    path: "/api/v1/channels",
    body: ["platform", "name", "active"],
    response: CHANNEL_FIELDS("channel"),
    retrySafe: false,
  },
  listPresets: {
    method: "GET",
    path: "/api/v1/presets",
    response: PRESET_FIELDS("presets[]"),
    retrySafe: true,
  },
  createContentMaster: {
    method: "POST",
    path: "/api/v1/content/items",
    body: ["title", "body", "source_transcription_id"],
    response: ITEM_FIELDS("item"),
    retrySafe: false,
  },
  getContentItem: {
    method: "GET",
    path: "/api/v1/content/items/{id}",
    response: ITEM_FIELDS("item"),
    retrySafe: true,
  },
  editContentItem: {
    method: "PATCH",
    path: "/api/v1/content/items/{id}",
    body: ["expected_content_hash", "title", "body"],
    response: ITEM_FIELDS("item"),
    // A repeat after a lost response would be refused: the item no longer has the expected hash.
    retrySafe: false,
  },
  getContentFamily: {
    method: "GET",
    path: "/api/v1/content/items/{id}/family",
    response: [...ITEM_FIELDS("master"), ...ITEM_FIELDS("variants[]"), ...DELIVERY_FIELDS("deliveries[]")],
    retrySafe: true,
  },
  createContentVariants: {
    method: "POST",
    path: "/api/v1/content/items/{id}/variants",
    body: ["client_request_id", "targets[].channel_id", "targets[].preset_id"],
    response: [
      "master_id",
      "client_request_id",
      ...["channel_id", "preset_id", "variant_id", "created", "task_id"].map((f) => `variants[].${f}`),
    ],
    retrySafe: true, // the same client_request_id replays the first answer
  },
  regenerateContentVariant: {
    method: "POST",
    path: "/api/v1/content/items/{id}/regenerate",
    body: ["expected_content_hash", "source"],
    response: [...ITEM_FIELDS("item"), "task_id"],
    retrySafe: false, // each call queues a new generation task
  },
  approveContentVariant: {
    method: "POST",
    path: "/api/v1/content/items/{id}/approve",
    body: ["content_hash"],
    response: ITEM_FIELDS("item"),
    retrySafe: true, // approving the same content_hash again changes nothing
  },
  recordContentDelivery: {
    method: "POST",
    path: "/api/v1/content/items/{id}/deliveries",
    body: ["client_event_id", "method", "state", "delivery_id", "content_hash"],
    response: [...DELIVERY_FIELDS("delivery"), "replayed"],
    retrySafe: true, // the same client_event_id replays the first answer
  },
  confirmManualDelivery: {
    method: "POST",
    path: "/api/v1/content/items/{id}/deliveries/manual",
    body: ["client_event_id", "content_hash", "published_url"],
    response: [...DELIVERY_FIELDS("delivery"), "replayed"],
    retrySafe: true, // the same client_event_id replays the first answer
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;
