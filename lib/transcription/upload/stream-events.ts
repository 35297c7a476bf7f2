import { z } from "zod";

// The events of a streamed transcription (text/event-stream; each event is one `data: <json>`
// line), in OpenAI's shapes so OpenAI clients read them unchanged.

export const TranscriptTextDeltaEvent = z
  .object({
    type: z.literal("transcript.text.delta"),
    delta: z.string().meta({ description: "The text of the next finished piece of the recording (a space first when it follows earlier text)." }),
  })
  .meta({
    id: "TranscriptTextDeltaEvent",
    description: "One per finished piece, in order; the deltas joined make up the text so far. A replay sends its whole text as one delta.",
  });

export const TranscriptTextDoneEvent = z
  .looseObject({
    type: z.literal("transcript.text.done"),
    text: z.string().meta({ description: "The whole transcript (authoritative: use it rather than the joined deltas)." }),
    id: z.string().meta({ description: "The stored transcription's id (GET /api/v1/transcriptions/{id}); a stream cannot send X-Transcription-Id." }),
  })
  .meta({
    id: "TranscriptTextDoneEvent",
    description:
      "The last event. On POST /transcribe it carries every field of the answer without a stream for the same " +
      "response_format (json, verbose_json: the TranscriptionResult, incl. optimizer_processing and optimization; " +
      "text: just text and id). On /v1/audio/transcriptions: text and id.",
  });

export const TranscriptStreamErrorEvent = z
  .object({
    type: z.literal("error"),
    error: z.object({
      code: z.string().meta({ description: "The same code the request would have failed with before the stream began (no_speech, unreadable_audio, engine_busy, idempotency_conflict, rate_limited, …)." }),
      message: z.string(),
      request_id: z.string(),
      status: z.number().int().meta({ description: "The HTTP status the request would have failed with, had it failed before the stream began." }),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: "TranscriptStreamErrorEvent", description: "Instead of transcript.text.done when the work fails after the stream began; the stream then ends." });

export type TranscriptStreamEvent =
  | z.input<typeof TranscriptTextDeltaEvent>
  | z.input<typeof TranscriptTextDoneEvent>
  | z.input<typeof TranscriptStreamErrorEvent>;
