import { defineOperation, idParameter } from "@/lib/openapi/operation.ts";
import {
  DeleteTranscriptionQuery,
  DictionarySuggestion,
  DictionarySuggestionList,
  DictionarySuggestionsQuery,
  EditTranscriptionInput,
  EditTranscriptionResult,
  ListTranscriptionsQuery,
  NoteAudio,
  Optimization,
  OptimizerProcessing,
  Recording,
  SearchMatch,
  TranscriptionList,
  TranscriptionListItem,
  TranscriptionResult,
  TranscriptSegment,
  TranscriptWord,
} from "@/lib/notes/schemas.ts";
import { ActionItem, Insights, TickActionItemsInput } from "@/lib/insights/schemas.ts";

// The note's endpoints: read, list and search, play its recording, edit, tick its to-dos, delete,
// suggest dictionary entries, and a recording in parts read as one note. Their paths and names
// stay the seed's ("transcriptions"); they are listed under the Transcription tag with the upload.

const tag = "Transcription";

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
    "protected from overwriting a newer edit of the text or title (409 edit_conflict); tags and pin do not change it. The AI-optimized text (`optimization.text`) is kept as it is. An edit back to the text the note showed before your first edit (an Undo) makes it unedited again (`edited_at` null). The answer carries " +
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

export const hearTranscriptionAgain = defineOperation({
  method: "post",
  path: "/api/v1/transcriptions/{id}/hear-again",
  id: "hearTranscriptionAgain",
  tag,
  summary: "Hear a note's recording again with a better recognizer",
  description:
    "For a note the basic recognizer (`engine` `pocketsphinx`) heard, once this server has the accurate one (whisper, " +
    "or an OpenAI-compatible server: GET /api/v1/settings says `transcription.quality` `accurate`): its kept recording " +
    "is heard again in the background, corrected with your dictionary as it is now. Answers 202 at once with the note, " +
    "`text_improving` true; read it again until `text_improving` is false. If the new words differ, they replace " +
    "`text`, `raw_text`, `segments` and `engine`, `text_improved_at` says when, the clean-up, insights and the posts " +
    "that still hold the note's text follow (approved or edited posts stay, marked out of date), and " +
    "`text_improved_undoable` is true: POST /api/v1/transcriptions/{id}/hear-again/undo puts the earlier text back. " +
    "An edit made meanwhile wins: the note keeps your text. Its length counts against the day's audio budget, as an upload would.",
  scope: "transcribe",
  parameters: idParameter("The transcription's id."),
  responses: { 202: { description: "Being heard again: the note, with text_improving true.", schema: TranscriptionResult } },
  errors: {
    not_found: "You have no transcription with this id.",
    no_audio_kept: "The note's recording was not kept (keep_audio=false, AUDIO_RETENTION_DAYS, or past the retention days).",
    note_edited: "You edited the note: hearing it again would replace your text.",
    no_better_recognizer: "This server's recognizer now is the one that heard the note, or not better than it.",
    already_improving: "The note is being heard again already (text_improving).",
    language_unsupported: "The recognizer this server has now cannot recognize the note's language.",
    rate_limited: "The day's audio budget is spent; Retry-After says when it is renewed.",
    engine_unavailable: "No recognizer is installed on this server.",
  },
});

export const undoHearingAgain = defineOperation({
  method: "post",
  path: "/api/v1/transcriptions/{id}/hear-again/undo",
  id: "undoHearingAgain",
  tag,
  summary: "Put back a note's text from before it was heard again",
  description:
    "While `text_improved_undoable` is true: the note's text, raw text, segments, engine and clean-up from before its " +
    "recording was heard again (a live recording's second pass, or POST …/hear-again) are put back, and its insights " +
    "and the posts that followed the new text follow back. Answers the note, `text_improved_at` null.",
  scope: "transcribe",
  parameters: idParameter("The transcription's id."),
  responses: { 200: { description: "The note with its earlier text.", schema: TranscriptionResult } },
  errors: {
    not_found: "You have no transcription with this id.",
    note_edited: "You edited the note since it was heard again: your text stays.",
    nothing_to_undo: "The note's text was not replaced by hearing it again, or that was undone already.",
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

export const NOTE_OPERATIONS = [
  getTranscription, getTranscriptionAudio, editTranscription, tickActionItems, hearTranscriptionAgain, undoHearingAgain, deleteTranscription, getDictionarySuggestions, getRecording, listTranscriptions,
];

export const NOTE_SCHEMAS = [
  TranscriptionResult, Insights, ActionItem, TickActionItemsInput, NoteAudio, TranscriptSegment, TranscriptWord, OptimizerProcessing, Optimization,
  TranscriptionList, TranscriptionListItem, SearchMatch, EditTranscriptionInput, EditTranscriptionResult, DictionarySuggestion, DictionarySuggestionList, Recording,
];
