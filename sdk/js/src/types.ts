// The shapes the API returns (field names as on the wire, snake_case): the OpenAPI document's schemas,
// generated from it with their descriptions (npm run generate:clients).
import type {
  Channel, DictionaryList, EditTranscriptionResult, GenerationInfo, Optimization, TranscriptionList, TranscriptTextDeltaEvent,
  TranscriptTextDoneEvent, VariantsInput,
} from "./generated/schemas.js";

export type {
  Channel, ContentFamily, ContentItem, Delivery, DeliveryResult, DictionaryEntry, DictionaryEntryInput, DictionarySuggestion,
  GenerationInfo, Optimization, OptimizerProcessing, Preset, Recording, SearchMatch, Settings, TranscriptionResult,
  TranscriptSegment, TranscriptTextDeltaEvent, TranscriptTextDoneEvent, TranscriptWord, VariantsResult,
} from "./generated/schemas.js";

export type OptimizationStatus = Optimization["status"];
export type TranscriptionPage = TranscriptionList;
export type DictionaryPage = DictionaryList;
/** editTranscription's answer: the transcription, with what this edit suggests for your dictionary. */
export type EditedTranscription = EditTranscriptionResult;
export type TranscriptStreamEvent = TranscriptTextDeltaEvent | TranscriptTextDoneEvent;
export type Platform = Channel["platform"];
export type GenerationState = GenerationInfo["state"];
export type VariantTarget = VariantsInput["targets"][number];
