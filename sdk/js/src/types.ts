// The shapes the API returns (field names as on the wire, snake_case), per GET /api/v1/openapi.json.

export type DictionaryEntryInput = { misspelling: string; correct_spelling: string };

export type DictionaryEntry = DictionaryEntryInput & { created_at: string; updated_at: string };

export type TranscriptSegment = { start: number; end: number; text: string };

/** One word and when it was spoken (seconds); a phrase your dictionary replaced is one word. */
export type TranscriptWord = { word: string; start: number; end: number };

/** Diagnostic identifiers of the AI optimization; not credentials, but do not publish them with transcripts. */
export type OptimizerProcessing = {
  optimizer_workflow_name: string;
  /** Stable for a recording: a retried upload of the same audio, prompt and dict gets the same id. */
  optimizer_workflow_id: string;
  optimizer_call_id: string;
  /** The current or last run; null until a run starts. */
  optimizer_execution_id: string | null;
};

export type OptimizationStatus = "pending" | "running" | "completed" | "failed";

export type Optimization = {
  status: OptimizationStatus;
  optimizer: "local" | "openai";
  /** inline: optimized before the response; background: long audio, poll (waitForOptimization). */
  mode: "inline" | "background";
  progress: { chunks_done: number; chunks_total: number };
  /** The optimized transcript once completed, else null. */
  text: string | null;
  /** Why it failed, or why the last attempt failed while it is retried. */
  error: { code: string; message: string } | null;
  completed_at: string | null;
};

export type TranscriptionResult = {
  id: string;
  created_at: string;
  /** Changes when the text is edited. */
  updated_at: string;
  /** The transcript, corrected with your dictionary. The AI-optimized version is optimization.text. */
  text: string;
  language: string;
  duration: number;
  engine: string;
  dictionary_replacements: number;
  segments?: TranscriptSegment[];
  /** Every word with its time: with the `words` option, and from getTranscription when the recognizer gave them. */
  words?: TranscriptWord[];
  /** Present when AI optimization is enabled. */
  optimizer_processing?: OptimizerProcessing;
  /** Present when AI optimization is enabled; long audio is optimized in the background. */
  optimization?: Optimization;
  /** The recording this upload is a part of, if it was sent with one. */
  recording?: { id: string; part: number } | null;
  /** Your name for the note (null: none; apps name it from its first sentence). */
  title?: string | null;
  /** When it was recorded (the upload's recorded_at, else created_at). */
  recorded_at?: string;
  /** The kept recording: getTranscriptionAudio(id) reads it; null when none is kept. */
  audio?: { url: string; content_type: string; bytes: number } | null;
};

/** Your settings (getSettings / updateSettings). */
export type Settings = {
  language: string;
  recognizer: { languages: "any" | string[]; hint: string | null; language_supported: boolean };
};

/** A streamed transcription's next piece of text; the deltas joined are the text so far. */
export type TranscriptTextDeltaEvent = { type: "transcript.text.delta"; delta: string };
/** The last event of a streamed transcription: the whole result, as transcribe() returns it. */
export type TranscriptTextDoneEvent = TranscriptionResult & { type: "transcript.text.done" };
export type TranscriptStreamEvent = TranscriptTextDeltaEvent | TranscriptTextDoneEvent;

export type Recording = {
  id: string;
  parts: { part: number; transcription_id: string; text: string; duration: number; optimization_status: OptimizationStatus | null }[];
  parts_received: number;
  /** The parts' texts joined in part order. */
  text: string;
  duration: number;
  optimization: { status: OptimizationStatus; progress: { chunks_done: number; chunks_total: number }; text: string | null } | null;
  created_at: string;
  updated_at: string;
};

/** A dictionary entry proposed from your edits of a transcript; add it with dictionary.add. */
export type DictionarySuggestion = { misspelling: string; correct_spelling: string; occurrences: number };

/** editTranscription's answer: the transcription, with what this edit suggests for your dictionary. */
export type EditedTranscription = TranscriptionResult & { dictionary_suggestions: DictionarySuggestion[] };

/** With q: how and where a note matched (`match` on the words searched for). */
export type SearchMatch = { rank: number; snippet: { text: string; match: boolean }[] };

export type TranscriptionPage = { transcriptions: (TranscriptionResult & { search?: SearchMatch })[]; next_cursor: string | null };

export type DictionaryPage = { entries: DictionaryEntry[]; next_cursor: string | null };

// ─── Content workflow ──────────────────────────────────────────────────────────────────────────

export type Platform = string;

export type Channel = {
  id: string;
  platform: Platform;
  name: string;
  active: boolean;
  /** The built-in preset that suits the platform, to preselect. */
  default_preset_id: string;
  created_at: string;
  updated_at: string;
};

export type Preset = {
  id: string;
  built_in: boolean;
  name: string;
  tone: string;
  length: string;
  format: string;
  hashtags: string[];
  include_title: boolean;
  created_at: string;
  updated_at: string;
};

export type GenerationState = "queued" | "running" | "succeeded" | "failed" | "conflicted" | "superseded";

export type GenerationInfo = {
  task_id: string;
  state: GenerationState;
  generator: string;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  /** state conflicted: the result that was not applied because the variant was edited meanwhile. */
  set_aside: { title: string; body: string; content_hash: string } | null;
};

export type ContentItem = {
  id: string;
  kind: "master" | "variant";
  master_id: string | null;
  title: string;
  body: string;
  /** Lowercase hex SHA-256 of title + "\n" + body: what approve and edits refer to. */
  content_hash: string;
  version: number;
  source_transcription_id: string | null;
  /** Which text of the transcription became a master's body; null when the body was given. */
  source_text_kind: "edited" | "optimized" | "recognized" | null;
  channel_id: string | null;
  preset_id: string | null;
  posts: string[] | null;
  source: { content_hash: string; version: number } | null;
  generation: GenerationInfo | null;
  approval: { state: "awaiting_approval" | "approved"; approved_hash: string | null; approved_at: string | null } | null;
  freshness: "fresh" | "stale" | null;
  created_at: string;
  updated_at: string;
};

export type Delivery = {
  id: string;
  item_id: string;
  method: "share" | "copy" | "export" | "manual";
  state: "initiated" | "presented" | "cancelled" | "failed" | "confirmed_manual";
  content_hash: string;
  published_url: string | null;
  created_at: string;
  updated_at: string;
};

export type ContentFamily = { master: ContentItem; variants: ContentItem[]; deliveries: Delivery[] };

export type VariantTarget = { channel_id: string; preset_id: string };

export type VariantsResult = {
  master_id: string;
  client_request_id: string;
  variants: (VariantTarget & { variant_id: string; created: boolean; task_id: string | null })[];
};

export type DeliveryResult = { delivery: Delivery; replayed: boolean };
