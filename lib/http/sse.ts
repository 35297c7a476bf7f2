// Server-sent events (text/event-stream): a response that is sent at once and written to as work
// progresses. Events are `data: <json>` only, no `event:` line, as OpenAI's streams are, so every
// SSE client (the openai SDKs, EventSource, a line reader) reads them the same way.

const encoder = new TextEncoder();

/** How often a comment is sent while nothing else is, so proxies do not cut an idle stream. */
export const KEEP_ALIVE_MS = 15_000;
export const KEEP_ALIVE = ": keep-alive\n\n";

export type EventSink = {
  /** Sends one event whose data is `data` as JSON; dropped once the client has gone. */
  send(data: unknown): void;
  /** False once the client disconnected (or the stream ended). */
  readonly open: boolean;
};

export const EVENT_STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // no-transform: Next's gzip (and most proxies) leave the stream alone instead of buffering it.
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  "X-Content-Type-Options": "nosniff",
};

/** One SSE message: a `data:` line per line of the JSON (JSON.stringify writes none, but be exact). */
export function formatEvent(data: unknown): string {
  return `${JSON.stringify(data).split("\n").map((line) => `data: ${line}`).join("\n")}\n\n`;
}

/**
 * A text/event-stream response fed by `produce`. The headers and a first keep-alive comment go
 * out at once; `produce` runs to its end even if the client disconnects (its sends are then
 * dropped), and the stream closes when it settles. `produce` must not throw: it turns its own
 * failures into events; anything it still throws only ends the stream.
 */
export function eventStream(
  produce: (sink: EventSink) => Promise<void>,
  { headers = {}, keepAliveMs = KEEP_ALIVE_MS }: { headers?: Record<string, string>; keepAliveMs?: number } = {},
): Response {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (open = false),
  });
  const write = (text: string) => {
    if (!open) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      open = false;
    }
  };
  const sink: EventSink = {
    send: (data) => write(formatEvent(data)),
    get open() {
      return open;
    },
  };
  write(KEEP_ALIVE);
  const keepAlive = setInterval(() => write(KEEP_ALIVE), keepAliveMs);
  keepAlive.unref();
  void produce(sink)
    .catch(() => undefined)
    .finally(() => {
      clearInterval(keepAlive);
      if (!open) return;
      open = false;
      try {
        controller.close();
      } catch {
        // already cancelled by the client
      }
    });
  return new Response(stream, { headers: { ...EVENT_STREAM_HEADERS, ...headers } });
}
