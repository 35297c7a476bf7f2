import { z } from "zod";
import { TagName } from "@/lib/tags/schemas.ts";

// Ask your notes: a question across a person's notes, answered from their own sentences with
// citations (the note, the sentence, its time in the recording), by the writer or offline.

export const QUESTION_MAX = 500;

// A day ("2026-11-01") or an instant with its offset; a day as `until` includes the whole day.
const DateBound = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: "must be a date (2026-11-01) or a date and time with offset (2026-11-01T09:00:00Z)" })
  .meta({ example: "2026-11-01" });

export const AskInput = z
  .strictObject({
    question: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(QUESTION_MAX, `must be at most ${QUESTION_MAX} characters`)
      .meta({ description: "The question, in any of your notes' languages.", example: "What did I say about the pricing?" }),
    tag: TagName.optional().meta({ description: "Only the notes with this tag (case aside)." }),
    since: DateBound.optional().meta({ description: "Only notes recorded on or after this day or instant." }),
    until: DateBound.optional().meta({ description: "Only notes recorded before this instant, or on or before this day." }),
  })
  .refine((input) => !input.since || !input.until || bound(input.since, "start") < bound(input.until, "end"), {
    path: ["until"],
    message: "must be after since",
  })
  .meta({ id: "AskInput", description: "A question across your notes, optionally only those with a tag or recorded in a time range." });

/** A bound as an instant: a day starts at 00:00 UTC (`start`) or ends after 23:59:59.999 UTC (`end`, exclusive). */
export function bound(value: string, side: "start" | "end"): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(Date.parse(`${value}T00:00:00Z`) + (side === "end" ? 86_400_000 : 0));
  return new Date(value);
}

export const Citation = z
  .object({
    n: z.number().int().min(1).meta({ description: "The passage's number, as the answer's [n] markers name it." }),
    note_id: z.string().meta({ description: "The note's id (GET /api/v1/transcriptions/{id})." }),
    note_title: z.string().meta({ description: "The note's title: yours, else its insights', else its first words." }),
    quote: z.string().meta({ description: "The sentence (or sentences) quoted, as the note shows it: your edit, else its clean-up, else the recognized text." }),
    start: z
      .number()
      .nullable()
      .meta({ description: "Seconds into the recording where the quote is spoken (an edited note's words lined up with the recognized ones); null for a note without times (typed, or edited past lining up)." }),
    end: z.number().nullable().meta({ description: "Seconds into the recording where the quote ends; null as start." }),
    recorded_at: z.iso.datetime().meta({ description: "When the note was recorded." }),
  })
  .meta({ id: "Citation", description: "A passage of one of your notes the answer rests on; play the note's audio from `start` to hear it." });

export const AskAnswer = z
  .object({
    question: z.string(),
    answer: z.string().meta({
      description:
        "The answer. Written by the writer it cites passages as [n] (only numbers of `citations`); offline it opens with " +
        "\"Here is what you said about …\" and quotes the best-matching sentences, grouped by note; with nothing found " +
        "it says so (\"I found nothing in your notes about …\").",
    }),
    answered_by: z.enum(["writer", "local-model", "offline"]).meta({ description: "Who wrote the answer: the writer (WRITER_BASE_URL), the model on the server itself, or the offline rules." }),
    offline_reason: z.string().nullable().meta({ description: "Why the answer is offline (no writer set up, the writer failed, or cited none of the passages); null when written by the writer." }),
    found: z.boolean().meta({ description: "Whether any passage of your notes matched the question." }),
    citations: z.array(Citation).meta({ description: "The passages cited, by number; the writer's answer keeps only the ones it cites." }),
    notes: z
      .array(z.object({ note_id: z.string(), note_title: z.string(), citations: z.array(z.number().int()).meta({ description: "Its citations' numbers, in the order spoken." }) }))
      .meta({ description: "The cited notes, best first, each with its citations (the offline answer's groups)." }),
  })
  .meta({ id: "AskAnswer", description: "An answer from your notes, with the passages it rests on." });

// The streamed answer (Accept: text/event-stream): each event one `data: <json>` line.

export const AskCitationsEvent = z
  .object({ type: z.literal("ask.citations"), citations: z.array(Citation) })
  .meta({ id: "AskCitationsEvent", description: "First: every passage the answer may cite, numbered (the writer is given these and no others)." });

export const AskDeltaEvent = z
  .object({ type: z.literal("ask.answer.delta"), delta: z.string() })
  .meta({ id: "AskDeltaEvent", description: "The next piece of the answer's text; the deltas joined are the answer so far (markers of passages not given are left out)." });

export const AskDoneEvent = AskAnswer.extend({ type: z.literal("ask.done") }).meta({
  id: "AskDoneEvent",
  description:
    "Last: the whole answer as without a stream (authoritative: when the writer failed or cited nothing, its `answer` " +
    "is the offline one and replaces the deltas).",
});

export type AskInput = z.output<typeof AskInput>;
export type Citation = z.output<typeof Citation>;
export type AskAnswer = z.output<typeof AskAnswer>;
