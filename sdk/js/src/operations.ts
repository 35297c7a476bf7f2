// The operations this client calls, by operationId. Method, path and the request and response types
// come from the generated files (npm run generate:clients); only the retry policy is written here.
import type { operations } from "./generated/openapi.js";
import { DOCUMENT_OPERATIONS, type DocumentOperationId } from "./generated/operations.js";

export type HttpMethod = (typeof DOCUMENT_OPERATIONS)[DocumentOperationId]["method"];

/**
 * An operation by its operationId, with its method and path template (e.g. /api/v1/transcriptions/{id}); retrySafe:
 * a repeat cannot do anything twice, so timeouts, network errors, 429 and 503 are retried.
 */
export type Operation<Id extends DocumentOperationId = DocumentOperationId> = {
  id: Id;
  method: HttpMethod;
  path: string;
  retrySafe: boolean;
};

type Content<T> = T extends { content?: infer C } ? C : never;
type Body<Id extends DocumentOperationId> = Content<NonNullable<operations[Id]["requestBody"]>>;
type Responses<Id extends DocumentOperationId> = operations[Id]["responses"];
type Success<Id extends DocumentOperationId> = Responses<Id>[(200 | 201 | 202 | 204) & keyof Responses<Id>];

export type PathParams<Id extends DocumentOperationId> = NonNullable<operations[Id]["parameters"]["path"]>;
export type QueryParams<Id extends DocumentOperationId> = NonNullable<operations[Id]["parameters"]["query"]>;
export type JsonBody<Id extends DocumentOperationId> = Body<Id> extends { "application/json": infer B } ? B : never;
export type FormFields<Id extends DocumentOperationId> = Body<Id> extends { "multipart/form-data": infer B } ? B : never;
/** The JSON answer of an operation's success (void when it answers without a body). */
export type JsonAnswer<Id extends DocumentOperationId> = [Content<Success<Id>>] extends [{ "application/json": infer B }]
  ? B
  : void;

// Not called by this client: the OpenAI-compatible upload (call it with the openai SDK), and what only the app's
// signed-in session may do (an API key gets 403): deleting the account, inviting someone, pairing a phone, and
// listing or signing out signed-in devices.
const LEFT_OUT = [
  "createOpenAiTranscription", "deleteAccount", "createInvitation", "createPairingCode", "listSignedInDevices", "signOutDevice",
] as const;

// Every read is retry-safe, and these writes: a repeat of transcribe (Idempotency-Key), createContentVariants
// (client_request_id) or a delivery (client_event_id) replays the first answer; the others set what is already set.
// The rest are not: a repeat after a lost response would be refused as an edit conflict, answer 404 for what it
// did delete, or create (or queue a generation) twice.
const RETRY_SAFE_WRITES = new Set<DocumentOperationId>([
  "transcribe", "updateSettings", "addDictionaryEntry", "approveContentVariant",
  "createContentVariants", "recordContentDelivery", "confirmManualDelivery",
  // A live recording's appends go by byte offset (bytes already held are skipped); finish answers the one note.
  "appendLiveAudio", "finishLiveRecording",
]);

export type OperationName = Exclude<DocumentOperationId, (typeof LEFT_OUT)[number]>;

export const OPERATIONS = Object.fromEntries(
  Object.entries(DOCUMENT_OPERATIONS)
    .filter(([id]) => !(LEFT_OUT as readonly string[]).includes(id))
    .map(([id, { method, path }]) => [id, { id, method, path, retrySafe: method === "GET" || RETRY_SAFE_WRITES.has(id as DocumentOperationId) }]),
) as { readonly [Id in OperationName]: Operation<Id> };

type ClientIdKey<Id extends OperationName> = Extract<keyof JsonBody<Id>, "client_request_id" | "client_event_id">;
/** An operation's body whose client id may be left out: it defaults to a new id, reused by the call's retries. */
export type WithClientId<Id extends OperationName> = Omit<JsonBody<Id>, ClientIdKey<Id>> & { [Key in ClientIdKey<Id>]?: string };
