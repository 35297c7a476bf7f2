import { z } from "zod";
import { integerText } from "@/lib/http/integer-text.ts";
import { NAME_CHARS, NAME_CHARS_MESSAGE } from "@/lib/http/names.ts";
import { Insights } from "@/lib/insights/schemas.ts";
import { NoteTags, TagName } from "@/lib/tags/schemas.ts";

// A note as the API shows it (the API calls it a transcription: its paths and the SDKs keep the
// seed's names): its text, timed words, clean-up, recording, insights and tags; the list, search,
// edit and dictionary-suggestion shapes; a recording in parts read as one note.

export const TranscriptSegment = z
  .object({ start: z.number(), end: z.number(), text: z.string() })
  .meta({ id: "TranscriptSegment", description: "Seconds from the start of the recording." });

export const TranscriptWord = z
  .object({ word: z.string(), start: z.number(), end: z.number() })
  .meta({
    id: "TranscriptWord",
    description:
      "One word and when it was spoken, in seconds from the start of the recording. A phrase your dictionary replaced " +
      "is one word spanning the words it replaced.",
  });

export const OPTIMIZATION_STATUSES = ["pending", "running", "completed", "failed"] as const;

export const OptimizerProcessing = z
  .object({
    optimizer_workflow_name: z.string().meta({ description: "The kind of workflow (transcript-optimization)." }),
    optimizer_workflow_id: z.string().meta({ description: "Stable for a recording: a retried upload of the same audio, prompt and dict gets the same id." }),
    optimizer_call_id: z.string().meta({ description: "The one dispatch of the workflow." }),
    optimizer_execution_id: z.string().nullable().meta({ description: "The current or last run; a recovered run gets a new one. Null until a run starts." }),
  })
  .meta({
    id: "OptimizerProcessing",
    description:
      "Diagnostic identifiers of the AI optimization (not credentials). Do not publish them together with transcript text, API keys or webhook URLs.",
  });

export const Optimization = z
  .object({
    status: z.enum(OPTIMIZATION_STATUSES).meta({
      description:
        "pending (queued) → running → completed | failed. Audio longer than the background threshold returns pending or running; shorter audio is optimized before the response.",
    }),
    optimizer: z.enum(["local", "openai"]).meta({ description: "local: offline rules; openai: an OpenAI-compatible chat model." }),
    mode: z.enum(["inline", "background"]),
    progress: z.object({ chunks_done: z.number().int(), chunks_total: z.number().int() }),
    text: z.string().nullable().meta({ description: "The optimized transcript (punctuation, casing, no filler words, paragraphs, your dictionary) once completed." }),
    changes: z
      .array(z.object({ recognized: z.string(), cleaned: z.string() }))
      .nullable()
      .meta({
        description:
          "What the clean-up changed, word by word, case and punctuation aside: each run of recognized words it left out or replaced, and what it wrote instead (\"\" when it only left them out, e.g. a filler). At most 200; null until completed.",
      }),
    rejected_reason: z.string().nullable().meta({
      description:
        "Why the writer's clean-up (of some part of the note) was not used: it did not keep what was said (it left out or added more than a few words). That part keeps the recognized words, tidied by the offline rules. Null when everything it wrote was used.",
    }),
    error: z.object({ code: z.string(), message: z.string() }).nullable().meta({ description: "Why the optimization failed, or why the last attempt failed while it is retried." }),
    completed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "Optimization", description: "Present when AI optimization is enabled (OPTIMIZER is not off)." });
export type Optimization = z.output<typeof Optimization>;

export const NoteAudio = z
  .object({
    url: z.string().meta({ description: "Where to get it (same API key or session), with Range support." }),
    content_type: z.string().meta({ example: "audio/webm; codecs=opus" }),
    bytes: z.number().int(),
  })
  .meta({ id: "NoteAudio" });

export const TranscriptionResult = z
  .object({
    id: z.string().meta({ description: "Read it again with GET /api/v1/transcriptions/{id}." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime().meta({ description: "Changes when you edit the text." }),
    edited_at: z.iso.datetime().nullable().meta({ description: "When you last edited the text (PATCH); null: never (or edited back to what it showed before), so `text` is the recognizer's, corrected with your dictionary." }),
    text_improved_at: z.iso.datetime().nullable().meta({
      description:
        "When the note's recording, heard again, last replaced its text (unless you edited the note first); null: never. A live recording's note opens with the text heard while you spoke, and its whole recording is then heard again by itself; " +
        "an older note is heard again when you ask (POST /api/v1/transcriptions/{id}/hear-again), by a better recognizer than the one that first heard it.",
    }),
    text_improving: z.boolean().meta({ description: "True while the whole recording is being heard again (see text_improved_at): the text may still change; read the note again in a few seconds." }),
    text_improved_undoable: z.boolean().meta({
      description:
        "True when the text from before the recording was heard again can be put back (POST /api/v1/transcriptions/{id}/hear-again/undo): from when it was replaced until you edit the note or undo it.",
    }),
    text: z.string().meta({ description: "The transcript, corrected with your dictionary (or as you last edited it). The AI-optimized version is optimization.text." }),
    raw_text: z.string().meta({ description: "The recognizer's own words, before your dictionary and your edits." }),
    language: z.string(),
    duration: z.number().meta({ description: "Length of the recording in seconds." }),
    engine: z.string().meta({ description: "The recognizer that produced the transcript." }),
    dictionary_replacements: z.number().int().meta({ description: "How many spans the dictionary changed." }),
    segments: z
      .array(TranscriptSegment)
      .optional()
      .meta({ description: "With response_format=verbose_json and from GET /api/v1/transcriptions/{id}." }),
    words: z
      .array(TranscriptWord)
      .optional()
      .meta({
        description:
          "Every word with its time, in order (the recognizer's timings, after your dictionary; not changed by edits): with " +
          "response_format=verbose_json and timestamp_granularities[]=word, and from GET /api/v1/transcriptions/{id} when " +
          "the recognizer gave word timings.",
      }),
    recording: z
      .object({ id: z.string(), part: z.number().int() })
      .nullable()
      .meta({ description: "The recording this is a part of (recording_id and recording_part of the upload)." }),
    title: z.string().nullable().meta({ description: "Your name for the note (PATCH); null: none given (apps name it from its first sentence)." }),
    recorded_at: z.iso.datetime().meta({ description: "When it was recorded: the upload's recorded_at, else created_at." }),
    audio: NoteAudio.nullable().meta({ description: "The kept recording, if any: GET /api/v1/transcriptions/{id}/audio plays it." }),
    audio_pending: z.boolean().meta({
      description:
        "true for a few seconds after a live recording's Stop: the note is answered as soon as its text is saved, and its " +
        "recording is compressed and kept just after (audio is null until then; read the note again).",
    }),
    insights: Insights.nullable().meta({
      description:
        "Title, summary, key points and action items, written when the note is recognized and again after you edit the text " +
        "or the clean-up changes it (ticks of unchanged action items are kept). Null only while not yet written.",
    }),
    insights_pending: z.boolean().meta({
      description:
        "true while the insights are being written again for the note's text as it is now: after its text changed (your " +
        "edit, the clean-up, the text heard again), or while the writer's insights follow the offline ones in the background. " +
        "Read the note again until it is false; a rewrite that fails leaves the insights as they were, and this turns false " +
        "within a few minutes.",
    }),
    tags: z.array(z.string()).meta({
      description: "Your tags on the note, in the order you added them (PATCH tags; GET /api/v1/tags lists them all). Every part of a recording in parts has the same.",
      example: ["work", "ideas"],
    }),
    pinned: z.boolean().meta({ description: "Pinned notes are listed first (PATCH pinned). Every part of a recording in parts has the same." }),
    optimizer_processing: OptimizerProcessing.optional(),
    optimization: Optimization.optional(),
  })
  .meta({ id: "TranscriptionResult" });
export type TranscriptionResult = z.output<typeof TranscriptionResult>;

/** The Idempotency-Key header: a retried upload with the same key replays the first result. */
export const SEARCH_MAX = 200;

export const ListTranscriptionsQuery = z.strictObject({
  limit: integerText((n) => n.min(1).max(100)).default(20).meta({ description: "Page size, 1–100 (default 20). A page also holds at most 1 MiB of its notes' texts beyond its first note: a page of long notes may hold fewer, and its next_cursor goes on." }),
  cursor: z.string().max(200).optional().meta({ description: "The next_cursor of the previous page." }),
  q: z
    .string()
    // Trimmed, but a space at the end is kept (as one): it says the last word is finished.
    .overwrite((q) => q.trimStart().replace(/\s+$/u, " "))
    .max(SEARCH_MAX, `must be at most ${SEARCH_MAX} characters`)
    .optional()
    .meta({
      description:
        "Search your notes (their titles, texts, edits, clean-ups and insights), in web search syntax: words (all must " +
        'appear), "a quoted phrase", or, -excluded. A word also finds its other forms in the note\'s language ' +
        "(countries finds country; stemmed for 29 languages, exact words in others), and the last word, unless " +
        "quoted or excluded, is a prefix as you type (countr finds country) if it has 3 letters or more and " +
        "the query does not end in a space (a finished word is a whole word). Other characters are not syntax: " +
        "only letters and digits are searched. `tag:work` (or `tag:\"two words\"`) keeps the notes with that tag, " +
        "`-tag:work` leaves them out; a query of tags only is the plain list of those notes. Results come best match " +
        "first, each with a `search` snippet around the first word found. Empty: the plain list.",
      example: '"release notes" -draft',
    }),
  tag: TagName.optional().meta({
    description:
      "Only the notes with this tag (case aside; a tag you do not have matches nothing). Also in `q`: `tag:work idea` " +
      'searches the notes tagged work for idea; `tag:"client x"` for a tag with a space; `-tag:draft` leaves those out.',
    example: "work",
  }),
});

export const SearchMatch = z
  .object({
    rank: z.number().meta({ description: "How well the note matches (higher is better); results are in this order." }),
    snippet: z
      .array(z.object({ text: z.string(), match: z.boolean() }))
      .meta({ description: "Where the words were found: pieces of the note's text, `match` true on the words searched for (to highlight)." }),
  })
  .meta({ id: "SearchMatch" });

export const TranscriptionListItem = TranscriptionResult.extend({
  search: SearchMatch.optional().meta({ description: "With q: how and where this note matched." }),
}).meta({ id: "TranscriptionListItem" });

export const TranscriptionList = z
  .object({
    transcriptions: z.array(TranscriptionListItem).meta({ description: "Newest first (with q: best match first), without segments." }),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: "TranscriptionList" });

export const TRANSCRIPT_TEXT_MAX = 1_000_000;

export const TITLE_MAX = 200;

export const DeleteTranscriptionQuery = z.strictObject({
  with_posts: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .default("false")
    .meta({
      description:
        "true: also delete the posts made from this note (masters with source_transcription_id = id, and their variants). " +
        "Default false: they stay, with a source_transcription_id that no longer resolves.",
    }),
});

export const EditTranscriptionInput = z
  .strictObject({
    text: z.string().max(TRANSCRIPT_TEXT_MAX, `must be at most ${TRANSCRIPT_TEXT_MAX} characters`).optional(),
    title: z
      .string()
      .trim()
      .max(TITLE_MAX, `must be at most ${TITLE_MAX} characters`)
      .regex(NAME_CHARS, NAME_CHARS_MESSAGE)
      .nullable()
      .optional()
      .meta({ description: "Your name for the note; null or \"\" removes it." }),
    tags: NoteTags.optional(),
    pinned: z.boolean().optional().meta({ description: "true pins the note to the top of the list; false unpins it. A recording in parts is pinned as a whole." }),
    updated_at: z.iso
      .datetime()
      .optional()
      .meta({
        description:
          "The updated_at you last saw; when the transcript changed since, an edit of text or title is refused with 409 " +
          "edit_conflict. Tags and pin are not checked against it and do not change it.",
      }),
  })
  .check((ctx) => {
    const { text, title, tags, pinned } = ctx.value;
    if (text === undefined && title === undefined && tags === undefined && pinned === undefined) {
      ctx.issues.push({ code: "custom", input: ctx.value, path: ["text"], message: "send text, title, tags or pinned" });
    }
  })
  .meta({ id: "EditTranscriptionInput" });

export const DICTIONARY_SUGGESTIONS_MAX = 20;

export const DictionarySuggestion = z
  .object({
    misspelling: z.string().meta({ description: "What the recognizer wrote (case-folded), as a dictionary misspelling.", example: "cooper netties" }),
    correct_spelling: z.string().meta({ description: "What you wrote instead, with your casing.", example: "Kubernetes" }),
    occurrences: z.number().int().meta({ description: "How many times you made this correction in the text." }),
  })
  .meta({
    id: "DictionarySuggestion",
    description: "A proposed dictionary entry; add it with POST /api/v1/dictionary/add (misspelling and correct_spelling as given).",
  });

const DictionarySuggestions = z
  .array(DictionarySuggestion)
  .meta({ description: `At most ${DICTIONARY_SUGGESTIONS_MAX}, most frequent first; entries already in your dictionary are left out.` });

export const EditTranscriptionResult = TranscriptionResult.extend({
  dictionary_suggestions: DictionarySuggestions.meta({
    description:
      "Entries proposed from this edit (the text before it → your new text): short replaced spans that look like " +
      "misrecognitions. Never common words, wording changes or rewritten sentences.",
  }),
}).meta({ id: "EditTranscriptionResult" });
export type EditTranscriptionResult = z.output<typeof EditTranscriptionResult>;

export const DictionarySuggestionsQuery = z.strictObject({
  limit: integerText((n) => n.min(1).max(DICTIONARY_SUGGESTIONS_MAX))
    .default(DICTIONARY_SUGGESTIONS_MAX)
    .meta({ description: `How many suggestions at most, 1–${DICTIONARY_SUGGESTIONS_MAX} (default ${DICTIONARY_SUGGESTIONS_MAX}).` }),
});

export const DictionarySuggestionList = z
  .object({ dictionary_suggestions: DictionarySuggestions })
  .meta({ id: "DictionarySuggestionList" });
export type DictionarySuggestionList = z.output<typeof DictionarySuggestionList>;

export const Recording = z
  .object({
    id: z.string(),
    parts: z.array(
      z.object({
        part: z.number().int(),
        transcription_id: z.string(),
        text: z.string(),
        duration: z.number(),
        optimization_status: z.enum(OPTIMIZATION_STATUSES).nullable(),
      }),
    ),
    parts_received: z.number().int(),
    text: z.string().meta({ description: "The parts' texts joined in part order." }),
    duration: z.number().meta({ description: "Seconds, all parts received so far." }),
    optimization: z
      .object({
        status: z.enum(OPTIMIZATION_STATUSES).meta({ description: "failed if any part failed, else the least advanced part's status." }),
        progress: z.object({ chunks_done: z.number().int(), chunks_total: z.number().int() }),
        text: z.string().nullable().meta({ description: "The parts' optimized texts joined, once every part is completed." }),
      })
      .nullable(),
    tags: z.array(z.string()).meta({ description: "The recording's tags (every part has them; PATCH any part to change them)." }),
    pinned: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Recording", description: "A recording uploaded in parts (recording_id / recording_part), joined in order." });
export type Recording = z.output<typeof Recording>;
