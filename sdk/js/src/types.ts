// The shapes the API returns (field names as on the wire, snake_case): the OpenAPI document's
// schemas, from the types generated from it (npm run generate:clients); their descriptions are there.
import type { components } from "./generated/openapi.js";

type Schemas = components["schemas"];

export type DictionaryEntryInput = Schemas["DictionaryEntryInput"];
export type DictionaryEntry = Schemas["DictionaryEntry"];
export type TranscriptSegment = Schemas["TranscriptSegment"];
/** One word and when it was spoken (seconds); a phrase your dictionary replaced is one word. */
export type TranscriptWord = Schemas["TranscriptWord"];
/** Diagnostic identifiers of the AI optimization; not credentials, but do not publish them with transcripts. */
export type OptimizerProcessing = Schemas["OptimizerProcessing"];
export type Optimization = Schemas["Optimization"];
export type OptimizationStatus = Optimization["status"];
export type TranscriptionResult = Schemas["TranscriptionResult"];
/** A streamed transcription's next piece of text; the deltas joined are the text so far. */
export type TranscriptTextDeltaEvent = Schemas["TranscriptTextDeltaEvent"];
/** The last event of a streamed transcription: the whole result, as transcribe() returns it. */
export type TranscriptTextDoneEvent = Schemas["TranscriptTextDoneEvent"];
export type TranscriptStreamEvent = TranscriptTextDeltaEvent | TranscriptTextDoneEvent;
export type Recording = Schemas["Recording"];
/** A dictionary entry proposed from your edits of a transcript; add it with dictionary.add. */
export type DictionarySuggestion = Schemas["DictionarySuggestion"];
/** editTranscription's answer: the transcription, with what this edit suggests for your dictionary. */
export type EditedTranscription = Schemas["EditTranscriptionResult"];
export type TranscriptionPage = Schemas["TranscriptionList"];
export type DictionaryPage = Schemas["DictionaryList"];

// ─── Content workflow ──────────────────────────────────────────────────────────────────────────

export type Channel = Schemas["Channel"];
export type Platform = Channel["platform"];
export type Preset = Schemas["Preset"];
export type GenerationInfo = Schemas["GenerationInfo"];
export type GenerationState = GenerationInfo["state"];
export type ContentItem = Schemas["ContentItem"];
export type Delivery = Schemas["Delivery"];
export type ContentFamily = Schemas["ContentFamily"];
export type VariantsResult = Schemas["VariantsResult"];
export type VariantTarget = Schemas["VariantsInput"]["targets"][number];
export type DeliveryResult = Schemas["DeliveryResult"];

// ─── Notes: search and settings ────────────────────────────────────────────────────────────────

/** With q: how and where a note matched (`match` on the words searched for). */
export type SearchMatch = Schemas["SearchMatch"];
/** Your settings: the language of your recordings, and what the recognizer can do for it. */
export type Settings = Schemas["Settings"];
