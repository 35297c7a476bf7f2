import { client, ok, okRead, type Schemas } from "@/app/_lib/api-client.ts";

// The notes, the dictionary and the settings as the browser uses them, through the generated
// client (app/_lib/api-client.ts). Wire types are the OpenAPI document's.

export { ApiRequestError, forgetSavedReads, OFFLINE_MESSAGE, savedRead, saveRead } from "@/app/_lib/api-client.ts";

export type DictionaryEntry = Schemas["DictionaryEntry"];
export type NewDictionaryEntry = Schemas["DictionaryEntryInput"];
export type DictionarySuggestion = Schemas["DictionarySuggestion"];
export type Optimization = Schemas["Optimization"];
export type Transcription = Schemas["TranscriptionResult"];
export type ActionItem = Schemas["ActionItem"];
export type TranscriptionList = Schemas["TranscriptionList"];
export type EditedTranscription = Schemas["EditTranscriptionResult"];
export type TranscriptionEdit = Schemas["EditTranscriptionInput"];
/** GET /api/v1/recordings/{id}: the parts the server has of one recording, joined in part order. */
export type Recording = Schemas["Recording"];
export type Tag = Schemas["Tag"];
export type Settings = Schemas["Settings"];

/** The path of a note (the key of its saved offline copy). */
export const transcriptionPath = (id: string) => `/api/v1/transcriptions/${encodeURIComponent(id)}`;
/** The path of the first page of notes (the key of its saved offline copy). */
export const notesPagePath = (limit: number, cursor?: string | null, tag?: string | null) =>
  `/api/v1/transcriptions?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}${tag ? `&tag=${encodeURIComponent(tag)}` : ""}`;

const note = (id: string) => ({ params: { path: { id } } });

export const getTranscription = (id: string) => ok(client.GET("/api/v1/transcriptions/{id}", note(id)));
/** A note, and whether it is this phone's saved copy (offline). */
export const readTranscription = (id: string) => okRead(client.GET("/api/v1/transcriptions/{id}", note(id)));
export const editTranscription = (id: string, body: TranscriptionEdit) => ok(client.PATCH("/api/v1/transcriptions/{id}", { ...note(id), body }));
/** Ticks (done: true) or unticks action items of a note's insights, named by their text. */
export const tickActionItems = (id: string, items: ActionItem[]) =>
  ok(client.PATCH("/api/v1/transcriptions/{id}/insights", { ...note(id), body: { action_items: items } }));
/** Hears the note's kept recording again with the accurate recognizer (202: the note, text_improving). */
export const hearTranscriptionAgain = (id: string) => ok(client.POST("/api/v1/transcriptions/{id}/hear-again", note(id)));
/** Puts back the note's text from before its recording was heard again. */
export const undoHearingAgain = (id: string) => ok(client.POST("/api/v1/transcriptions/{id}/hear-again/undo", note(id)));
export const renameTranscription = (id: string, title: string | null) => editTranscription(id, { title });
export const deleteTranscription = (id: string, { withPosts = false } = {}) =>
  ok(client.DELETE("/api/v1/transcriptions/{id}", { params: { path: { id }, query: withPosts ? { with_posts: "true" } : {} } }));
export const listTranscriptions = (limit: number, cursor?: string | null, tag?: string | null) =>
  ok(client.GET("/api/v1/transcriptions", { params: { query: { limit, ...(cursor ? { cursor } : {}), ...(tag ? { tag } : {}) } } }));
/** Your tags with their counts, the most used first (kept for offline reading like any read). */
export const listTags = () => ok(client.GET("/api/v1/tags")).then((r) => r.tags);
export const renameTag = (from: string, to: string) => ok(client.POST("/api/v1/tags/rename", { body: { from, to } }));
export const deleteTag = (name: string) => ok(client.DELETE("/api/v1/tags", { params: { query: { name } } }));
export const searchTranscriptions = (q: string, { limit = 30, signal }: { limit?: number; signal?: AbortSignal } = {}) =>
  ok(client.GET("/api/v1/transcriptions", { params: { query: { limit, q } }, signal }));
export const getRecording = (id: string) => ok(client.GET("/api/v1/recordings/{recording_id}", { params: { path: { recording_id: id } } }));

/**
 * Adds a word to the user's dictionary, or respells the entry with the same misspelling (`created`
 * says which). Only the entry's two fields are sent: the dictionary refuses unknown keys, and a
 * suggestion, say, also carries how often it was seen.
 */
export const addDictionaryEntry = ({ misspelling, correct_spelling }: NewDictionaryEntry) =>
  ok(client.POST("/api/v1/dictionary/add", { body: { misspelling, correct_spelling } }));
export const listDictionary = () => ok(client.GET("/api/v1/dictionary")).then((r) => r.entries);
export const dictionaryImpact = (misspelling: string, language?: string) =>
  ok(client.GET("/api/v1/dictionary/impact", { params: { query: { misspelling, ...(language && /^[a-z]{2}$/.test(language) && { language }) } } }));
export const deleteDictionaryEntry = (misspelling: string) => ok(client.DELETE("/api/v1/dictionary/delete", { params: { query: { misspelling } } }));

export const getSettings = () => ok(client.GET("/api/v1/settings"));
export const updateSettings = (body: Schemas["UpdateSettingsInput"]) => ok(client.PATCH("/api/v1/settings", { body }));
export const deleteAccount = (confirm: string) => ok(client.DELETE("/api/v1/account", { body: { confirm } }));
