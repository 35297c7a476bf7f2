// The operations this client calls, by their operationId in the OpenAPI document. Method, path and
// the request and response types come from the generated files (npm run generate:clients), so a
// contract change that breaks a call fails to compile; only the retry policy is written here.
import type { operations } from "./generated/openapi.js";
import { DOCUMENT_OPERATIONS, type DocumentOperationId } from "./generated/operations.js";

export type HttpMethod = (typeof DOCUMENT_OPERATIONS)[DocumentOperationId]["method"];

export type Operation<Id extends DocumentOperationId = DocumentOperationId> = {
  id: Id;
  method: HttpMethod;
  /** The OpenAPI path template, e.g. /api/v1/transcriptions/{id}. */
  path: string;
  /**
   * Whether repeating the call cannot do anything twice, so timeouts, network errors, 429 and 503
   * are retried: reads, upserts, uploads with an Idempotency-Key, and creation keyed by client_request_id.
   */
  retrySafe: boolean;
};

type Params<Id extends DocumentOperationId> = operations[Id]["parameters"];
type Content<T> = T extends { content?: infer C } ? C : never;
type Success<Id extends DocumentOperationId> = operations[Id]["responses"][(200 | 201 | 202 | 204) & keyof operations[Id]["responses"]];

export type PathParams<Id extends DocumentOperationId> = NonNullable<Params<Id>["path"]>;
export type QueryParams<Id extends DocumentOperationId> = NonNullable<Params<Id>["query"]>;
/** The JSON request body of an operation. */
export type JsonBody<Id extends DocumentOperationId> = Content<NonNullable<operations[Id]["requestBody"]>> extends { "application/json": infer B } ? B : never;
/** The fields of an operation's multipart/form-data request body. */
export type FormFields<Id extends DocumentOperationId> =
  Content<NonNullable<operations[Id]["requestBody"]>> extends { "multipart/form-data": infer B } ? B : never;
/** The JSON answer of an operation's success (void when it answers without a body). */
export type JsonAnswer<Id extends DocumentOperationId> = [Content<Success<Id>>] extends [{ "application/json": infer B }] ? B : void;

const operation = <Id extends DocumentOperationId>(id: Id, retrySafe: boolean): Operation<Id> => ({ id, ...DOCUMENT_OPERATIONS[id], retrySafe });

export const OPERATIONS = {
  transcribe: operation("transcribe", true), // with an Idempotency-Key, a repeat replays the first result
  getTranscription: operation("getTranscription", true),
  getRecording: operation("getRecording", true),
  listTranscriptions: operation("listTranscriptions", true),
  // With updated_at, a repeat after a lost response would be refused as an edit conflict.
  editTranscription: operation("editTranscription", false),
  getDictionarySuggestions: operation("getDictionarySuggestions", true),
  getTranscriptionAudio: operation("getTranscriptionAudio", true),
  // A repeat after a lost response would answer 404 for a note that was in fact deleted.
  deleteTranscription: operation("deleteTranscription", false),
  getSettings: operation("getSettings", true),
  updateSettings: operation("updateSettings", true), // setting the same language again changes nothing
  exportUserData: operation("exportUserData", true),
  listDictionary: operation("listDictionary", true),
  addDictionaryEntry: operation("addDictionaryEntry", true), // an upsert
  // A repeat after a lost response would answer 404 for an entry that was in fact deleted.
  deleteDictionaryEntry: operation("deleteDictionaryEntry", false),
  listChannels: operation("listChannels", true),
  createChannel: operation("createChannel", false),
  listPresets: operation("listPresets", true),
  createContentMaster: operation("createContentMaster", false),
  getContentItem: operation("getContentItem", true),
  // A repeat after a lost response would be refused: the item no longer has the expected hash.
  editContentItem: operation("editContentItem", false),
  getContentFamily: operation("getContentFamily", true),
  createContentVariants: operation("createContentVariants", true), // the same client_request_id replays the first answer
  regenerateContentVariant: operation("regenerateContentVariant", false), // each call queues a new generation task
  approveContentVariant: operation("approveContentVariant", true), // approving the same content_hash again changes nothing
  recordContentDelivery: operation("recordContentDelivery", true), // the same client_event_id replays the first answer
  confirmManualDelivery: operation("confirmManualDelivery", true), // the same client_event_id replays the first answer
} as const;

export type OperationName = keyof typeof OPERATIONS;
