// Streamed transcription: server-sent events, each one `data: <json>` line; comments (`: keep-alive`) only keep it alive.
import { apiError, ConnectionError, TimeoutError } from "./errors.js";
import type { TranscriptStreamErrorEvent } from "./generated/schemas.js";
import type { TranscriptionResult, TranscriptStreamEvent } from "./types.js";

/** The `data:` payloads of an SSE body, one per event; throws TimeoutError after `idleTimeout` ms without a byte. */
async function* sseData(body: ReadableStream<Uint8Array>, idleTimeout: number, url: string): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError(`The stream from ${url} sent nothing for ${idleTimeout} ms.`)), idleTimeout);
      });
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await Promise.race([reader.read(), idle]);
      } catch (err) {
        if (err instanceof TimeoutError) throw err;
        throw new ConnectionError(`The stream from ${url} broke: ${(err as Error).message}`, { cause: err });
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true }).replace(/\r\n?/g, "\n");
      const blocks = buffer.split("\n\n");
      buffer = blocks.pop()!;
      for (const block of blocks) {
        const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((match) => match[1]);
        if (data.length) yield data.join("\n");
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * The events of a streamed answer: deltas, then done (the whole result). An `error` event is thrown as the ApiError the
 * request would have failed with; an end without done is a ConnectionError (retry with the same Idempotency-Key).
 */
export async function* transcriptEvents(res: Response, idleTimeout: number, url: string): AsyncGenerator<TranscriptStreamEvent> {
  if (!res.headers.get("content-type")?.startsWith("text/event-stream")) {
    // A service without streaming answers JSON: the same events, all at once.
    const result = (await res.json()) as TranscriptionResult;
    if (result.text) yield { type: "transcript.text.delta", delta: result.text };
    yield { ...result, type: "transcript.text.done" };
    return;
  }
  for await (const data of sseData(res.body!, idleTimeout, url)) {
    const event = JSON.parse(data) as TranscriptStreamEvent | TranscriptStreamErrorEvent;
    if (event.type === "error") {
      const { status = 500, code, message, request_id: requestId, details } = event.error;
      throw apiError({ status, code, message, requestId, details });
    }
    yield event;
    if (event.type === "transcript.text.done") return;
  }
  throw new ConnectionError(`The stream from ${url} ended before the transcript was done.`);
}
