import type { z } from "zod";
import { env } from "@/lib/env.ts";
import { ApiError, internalError } from "@/lib/http/errors.ts";
import { validationError } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { eventStream } from "@/lib/http/sse.ts";
import { errorFields, log } from "@/lib/log.ts";
import { SUPPORTED_FORMATS_TEXT } from "@/lib/transcription/audio/audio-format.ts";
import { formatOpenAiResult, formatResult } from "@/lib/transcription/upload/format-result.ts";
import { parseIdempotencyKey } from "@/lib/idempotency/idempotency-key-header.ts";
import { receiveUpload, type Upload } from "@/lib/transcription/audio/receive-upload.ts";
import { OPENAI_STREAM_FORMATS, OPENAI_TEXT_FIELDS, OpenAiTranscriptionFields, TRANSCRIBE_STREAM_FORMATS, TRANSCRIBE_TEXT_FIELDS, TranscribeFields, type ResponseFormat, wantsWords } from "@/lib/transcription/schemas.ts";
import { type TranscriptionResult } from "@/lib/notes/schemas.ts";
import type { TranscriptStreamEvent } from "@/lib/transcription/upload/stream-events.ts";
import { transcribeAudio } from "@/lib/transcription/recognition/transcribe-audio.ts";
import { heavyTurns } from "@/lib/turns/heavy-turns.ts";

type Formatted = ReturnType<typeof formatResult>;
type TranscribeInput = Parameters<typeof transcribeAudio>[0]["input"];
type Transcribed = Awaited<ReturnType<typeof transcribeAudio>>;

/** What sets the two upload endpoints apart: the form's fields and the answer's shape. */
export type UploadForm<F extends z.ZodObject> = {
  fileField: string;
  textFields: string[];
  fields: F;
  /** The recognition options among the fields (what the idempotency check compares). */
  input: (fields: z.output<F>) => TranscribeInput;
  format: (result: TranscriptionResult, fields: z.output<F>) => Formatted;
  /** Whether the request asks for text/event-stream, and the response formats a stream can end with. */
  wantsStream: (req: Request, fields: z.output<F>) => boolean;
  streamFormats: readonly ResponseFormat[];
  /** The final event's fields besides its type, the whole text and the transcription's id. */
  done: (result: TranscriptionResult, fields: z.output<F>) => Record<string, unknown>;
};

/** `Accept: text/event-stream` among the accepted types (and not refused with q=0). */
export function acceptsEventStream(req: Request): boolean {
  return (req.headers.get("accept") ?? "").split(",").some((range) => {
    const [type, ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    return type === "text/event-stream" && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

/** POST /transcribe: the file in `audio`, Voicedraft's fields and answer. */
export const TRANSCRIBE_FORM: UploadForm<typeof TranscribeFields> = {
  fileField: "audio",
  textFields: TRANSCRIBE_TEXT_FIELDS,
  fields: TranscribeFields,
  input: (fields) => fields,
  format: (result, fields) => formatResult(result, fields.response_format, { words: wantsWords(fields) }),
  wantsStream: (req) => acceptsEventStream(req),
  streamFormats: TRANSCRIBE_STREAM_FORMATS,
  // The same body as the answer without a stream (for text, the text is all there is).
  done: (result, fields) => {
    const formatted = formatResult(result, fields.response_format, { words: wantsWords(fields) });
    return "json" in formatted ? (formatted.json as Record<string, unknown>) : {};
  },
};

/** POST /v1/audio/transcriptions: OpenAI's form (the file in `file`; model and temperature ignored) and answer. */
export const OPENAI_FORM: UploadForm<typeof OpenAiTranscriptionFields> = {
  fileField: "file",
  textFields: OPENAI_TEXT_FIELDS,
  fields: OpenAiTranscriptionFields,
  input: ({ prompt, language, response_format }) => ({ prompt, language, response_format }),
  format: (result, fields) => formatOpenAiResult(result, fields.response_format, { words: wantsWords(fields) }),
  wantsStream: (_req, fields) => fields.stream,
  streamFormats: OPENAI_STREAM_FORMATS,
  // OpenAI's TranscriptionTextDoneEvent (text), plus the id: X-Transcription-Id cannot be sent before the work.
  done: () => ({}),
};

function transcriptionResponse({ result, replayed }: Transcribed, formatted: Formatted): Response {
  const headers = { "X-Transcription-Id": result.id, ...(replayed && { "Idempotent-Replayed": "true" }) };
  if ("json" in formatted) return json(formatted.json, { headers });
  return new Response(formatted.body, { headers: { "content-type": formatted.contentType, ...headers } });
}

/** An upload endpoint: the multipart form received, its fields checked, the recording transcribed and answered. */
/**
 * A person's recordings take turns, whichever way they come (an upload, a stream, an MCP call) and
 * whichever of their keys sends them: two recognized at once, the rest waiting in order (a phone
 * back online sends its queue at once; a retried upload waits to be answered as a replay); past 32
 * waiting, 429 rate_limited. The recognizer's own queue then orders everyone's work by urgency.
 */
export const TRANSCRIPTIONS_PER_PERSON = 2;
export const TRANSCRIPTIONS_WAITING_PER_PERSON = 32;
const transcriptionTurns = heavyTurns("transcriptions", { perPerson: TRANSCRIPTIONS_PER_PERSON, maxWaiting: TRANSCRIPTIONS_WAITING_PER_PERSON });

export async function transcribeUpload<F extends z.ZodObject>({
  req,
  userId,
  requestId,
  form,
}: {
  req: Request;
  userId: string;
  requestId: string;
  form: UploadForm<F>;
}): Promise<Response> {
  const idempotencyKey = parseIdempotencyKey(req);
  const upload = await receiveUpload(req, { fileField: form.fileField, maxBytes: env().MAX_UPLOAD_BYTES, textFields: form.textFields });
  let streaming = false;
  try {
    const parsed = form.fields.safeParse(upload.fields);
    if (!parsed.success) throw validationError(parsed.error);
    const fields = parsed.data;
    const input = form.input(fields);
    if (form.wantsStream(req, fields)) {
      assertStreamable(upload, input.response_format, form.streamFormats);
      streaming = true;
      return streamTranscription({ upload, requestId, done: (result) => form.done(result, fields) }, (onText) =>
        transcriptionTurns(userId, () => transcribeAudio({ userId, upload, input, idempotencyKey, onText })),
      );
    }
    // A long recording's request stops waiting when the client goes away; its pieces still finish, for the retry.
    const transcription = await transcriptionTurns(userId, () => transcribeAudio({ userId, upload, input, idempotencyKey, signal: req.signal }), req.signal);
    return transcriptionResponse(transcription, form.format(transcription.result, fields));
  } finally {
    // A stream removes the upload itself, once its work has ended.
    if (!streaming) await upload.cleanup();
  }
}

/**
 * A recording already received (an MCP call's, decoded from base64), with POST /transcribe's fields:
 * made into a note as an upload is, answered as /transcribe's JSON. The upload is removed after.
 */
export async function transcribeReceived({ upload, userId, fields, signal }: { upload: Upload; userId: string; fields: Record<string, string>; signal?: AbortSignal }): Promise<Record<string, unknown>> {
  try {
    const parsed = TranscribeFields.safeParse(fields);
    if (!parsed.success) throw validationError(parsed.error);
    const { result } = await transcriptionTurns(userId, () => transcribeAudio({ userId, upload, input: parsed.data }), signal);
    const formatted = TRANSCRIBE_FORM.format(result, parsed.data);
    return "json" in formatted ? (formatted.json as Record<string, unknown>) : {};
  } finally {
    await upload.cleanup();
  }
}

/**
 * What can be refused before a stream starts, as a normal error response: a format that cannot
 * stream, and an upload that is no audio at all (the same checks transcribeAudio makes).
 */
function assertStreamable(upload: Upload, format: ResponseFormat, streamFormats: readonly ResponseFormat[]): void {
  if (!streamFormats.includes(format)) {
    const message = `cannot be streamed; a streamed answer ends with ${streamFormats.join(", ")}`;
    throw new ApiError("validation_failed", `response_format ${format} ${message}.`, { details: [{ path: "response_format", message }] });
  }
  if (upload.audioBytes === 0) throw new ApiError("empty_audio", "The audio file is empty (0 bytes).");
  if (!upload.format) {
    throw new ApiError("unsupported_audio", `This file is not audio in a supported format (${SUPPORTED_FORMATS_TEXT}).`);
  }
}

/** Joins a piece's text to what was sent before with one space, so the deltas add up to the text. */
function spaced(sent: string, delta: string): string {
  return sent && !/\s$/.test(sent) && !/^\s/.test(delta) ? ` ${delta}` : delta;
}

/**
 * The text/event-stream answer: a transcript.text.delta per finished piece, in order, then
 * transcript.text.done (or an `error` event in the error shape). A replay sends its whole text as
 * one delta. A client that disconnects stops receiving; the work still finishes and is stored, so
 * a retry with the same Idempotency-Key replays it.
 */
function streamTranscription(
  { upload, requestId, done }: { upload: Upload; requestId: string; done: (result: TranscriptionResult) => Record<string, unknown> },
  run: (onText: (delta: string) => void) => Promise<Transcribed>,
): Response {
  return eventStream(async (sink) => {
    const send = (event: TranscriptStreamEvent) => sink.send(event);
    const started = performance.now();
    let sent = "";
    let deltas = 0;
    const sendDelta = (text: string) => {
      const delta = spaced(sent, text);
      sent += delta;
      deltas += 1;
      send({ type: "transcript.text.delta", delta });
    };
    let outcome = "done";
    try {
      const { result } = await run(sendDelta);
      if (deltas === 0 && result.text) sendDelta(result.text);
      send({ type: "transcript.text.done", text: result.text, id: result.id, ...done(result) });
    } catch (err) {
      const apiError = err instanceof ApiError ? err : internalError();
      outcome = apiError.code;
      if (apiError.status >= 500) log.error("stream failed", { request_id: requestId, ...errorFields(err) });
      const { details } = apiError.options;
      const error = { code: apiError.code, message: apiError.message, request_id: requestId, status: apiError.status, ...(details && { details }) };
      send({ type: "error", error });
    } finally {
      await upload.cleanup().catch(() => undefined);
      log.info("stream ended", {
        request_id: requestId,
        outcome,
        deltas,
        client_connected: sink.open,
        duration_ms: Math.round(performance.now() - started),
      });
    }
  });
}
