import { schemaRef } from "@/lib/openapi/json-schema.ts";
import { defineOperation, pathsOf, type ApiArea } from "@/lib/openapi/operation.ts";
import { TranscriptStreamErrorEvent } from "@/lib/transcription/upload/stream-events.ts";
import { AskAnswer, AskCitationsEvent, AskDeltaEvent, AskDoneEvent, AskInput, Citation, QUESTION_MAX } from "@/lib/ask/schemas.ts";

// Ask your notes: one operation, answered as JSON or, with Accept: text/event-stream, as events.

const tag = "Ask";

const EVENT_STREAM = {
  type: "string",
  description:
    "Server-sent events, each one `data: <json>` line. A `: keep-alive` comment at once and every 15 s; `ask.citations` " +
    "with every passage the answer may cite; `ask.answer.delta` events with the answer's text as it is written; then " +
    "`ask.done` with the whole answer (as the JSON answer: authoritative), or an `error` event; then the stream ends.",
  "x-sse-data": { oneOf: [schemaRef(AskCitationsEvent), schemaRef(AskDeltaEvent), schemaRef(AskDoneEvent), schemaRef(TranscriptStreamErrorEvent)] },
  examples: [
    ': keep-alive\n\ndata: {"type":"ask.citations","citations":[{"n":1,"note_id":"…","note_title":"Pricing call","quote":"We should charge twelve dollars a month.","start":12.4,"end":15.1,"recorded_at":"2026-11-20T09:00:00.000Z"}]}\n\n' +
      'data: {"type":"ask.answer.delta","delta":"You wanted to charge "}\n\n' +
      'data: {"type":"ask.answer.delta","delta":"twelve dollars a month [1]."}\n\n' +
      'data: {"type":"ask.done","question":"What did I say about the pricing?","answer":"You wanted to charge twelve dollars a month [1].","answered_by":"writer","offline_reason":null,"found":true,"citations":[…],"notes":[…]}\n\n',
  ],
};

export const askNotes = defineOperation({
  method: "post",
  path: "/api/v1/ask",
  id: "askNotes",
  tag,
  summary: "Ask your notes",
  description:
    "Answers a question across your notes from what you said, with citations: each names the note, quotes the sentence " +
    "and gives its time in the recording (`start`, `end` in seconds), so a player can play it from there. The question's " +
    "words are searched as GET /api/v1/transcriptions?q= searches (stemmed in your notes' languages), any of them rather " +
    "than all; the best-matching sentences (at most 8, at most 3 a note) are what the answer rests on.\n\n" +
    "With a writer set up, it answers from those passages only and cites them as [n]; a number it was not given is " +
    "left out, and when it fails or cites nothing the answer is the offline one (`answered_by: \"offline\"` and " +
    "`offline_reason` say so). Offline: \"Here is what you said about …\" and the sentences, grouped by note. Nothing " +
    "found is not an error: `found` is false and the answer says so.\n\n" +
    "**Streaming:** send `Accept: text/event-stream` to get the citations first, then the answer as it is written " +
    "(`ask.citations`, `ask.answer.delta`…, `ask.done`).",
  scope: "transcribe",
  body: AskInput,
  responses: {
    200: {
      description: "The answer with its citations; with Accept: text/event-stream, server-sent events.",
      schema: AskAnswer,
      alternatives: { "text/event-stream": EVENT_STREAM },
    },
  },
  errors: {
    validation_failed: `question is empty or longer than ${QUESTION_MAX} characters, tag is not a valid tag, since or until is not a date (2026-11-01) or a date and time with offset, or until is before since; details names each one.`,
  },
});

export const askArea: ApiArea = {
  tag: {
    name: tag,
    description: "Questions across your notes, answered from your own sentences with citations to the moment you said them.",
  },
  schemas: [AskInput, AskAnswer, Citation, AskCitationsEvent, AskDeltaEvent, AskDoneEvent],
  paths: pathsOf(askNotes),
};
