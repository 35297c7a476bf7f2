// HTTP calls with timeouts and retries. Only retrySafe operations are retried (timeouts, network errors, 429, 503); the
// wait doubles from 0.5 s with jitter, or is what the service's Retry-After asks (capped), whichever is longer.
import { apiError, ApiError, ConnectionError, TimeoutError } from "./errors.js";
import type { DocumentOperationId } from "./generated/operations.js";
import type { Error as ErrorBody } from "./generated/schemas.js";
import type { JsonAnswer, JsonBody, Operation, PathParams, QueryParams } from "./operations.js";

export type CallOptions = { timeout?: number; signal?: AbortSignal };

/** One call of operation Id: its parameters and body as the OpenAPI document types them. */
export type RequestOptions<Id extends DocumentOperationId = DocumentOperationId> = CallOptions & {
  pathParams?: PathParams<Id>;
  query?: QueryParams<Id>;
  headers?: Record<string, string>;
  json?: JsonBody<Id>;
  form?: FormData;
  /** A raw body (audio bytes) and its type. */
  bytes?: { data: Blob | Uint8Array; type: string };
};

export type Call = <Id extends DocumentOperationId>(op: Operation<Id>, options?: RequestOptions<Id>) => Promise<JsonAnswer<Id>>;

type Values = Record<string, string | number | boolean | undefined>;

const RETRY_STATUSES = new Set([429, 503]);
const MAX_WAIT_SECONDS = 60;

/** A new id for Idempotency-Key, client_request_id or client_event_id: one per logical request, reused by its retries. */
export const newClientId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    signal?.throwIfAborted();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** Retry-After in seconds: a number of seconds, or an HTTP date. */
function parseRetryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number.isFinite(Number(value)) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isNaN(seconds) ? null : Math.max(0, seconds);
}

async function errorFromResponse(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  let error: Partial<ErrorBody["error"]> = {};
  try {
    error = JSON.parse(text)?.error ?? {};
  } catch {
    // not the API's error shape (a proxy's page, say): keep the status
  }
  return apiError({
    status: res.status,
    code: error.code ?? `http_${res.status}`,
    message: error.message ?? (text.slice(0, 200) || res.statusText),
    requestId: error.request_id ?? res.headers.get("x-request-id"),
    details: error.details,
    retryAfterSeconds: parseRetryAfter(res.headers.get("retry-after")),
  });
}

/** The client's options as the transport uses them, each one settled (the client applies the defaults). */
export type TransportOptions = { baseUrl: string; apiKey: string; timeout: number; maxRetries: number; fetch: typeof fetch };

/** The calls of one client: its base URL, API key, timeout per attempt, retries and fetch. */
export class Transport {
  constructor(private readonly options: TransportOptions) {}

  /** A call answered with JSON (or with nothing). */
  request<Id extends DocumentOperationId>(op: Operation<Id>, options: RequestOptions<Id> = {}): Promise<JsonAnswer<Id>> {
    return this.#send(op, options, "application/json", async (res) => {
      const text = await res.text();
      return text ? JSON.parse(text) : undefined;
    });
  }

  /** A call whose answer (an event stream, audio, a ZIP) is returned unread once it begins; the signal may still abort it. */
  open<Id extends DocumentOperationId>(op: Operation<Id>, options: RequestOptions<Id> = {}, accept = "text/event-stream") {
    return this.#send(op, options, accept, async (res, url) => ({ res, url }), true);
  }

  #url<Id extends DocumentOperationId>(op: Operation<Id>, options: RequestOptions<Id>): string {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = (options.pathParams as Values | undefined)?.[name];
      if (value === undefined || value === "") throw new TypeError(`${name} is required.`);
      return encodeURIComponent(value);
    });
    const url = new URL(this.options.baseUrl.replace(/\/+$/, "") + path);
    for (const [name, value] of Object.entries((options.query ?? {}) as Values)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  /** Attempts until one succeeds or may not be retried. The timeout covers `read`; a stream's ends when its answer begins. */
  async #send<Id extends DocumentOperationId, T>(
    op: Operation<Id>,
    options: RequestOptions<Id>,
    accept: string,
    read: (res: Response, url: string) => Promise<T>,
    streamed = false,
  ): Promise<T> {
    const { signal, timeout = this.options.timeout } = options;
    const url = this.#url(op, options);
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept, ...options.headers };
    if (options.json !== undefined) headers["content-type"] = "application/json";
    if (options.bytes) headers["content-type"] = options.bytes.type;
    // fetch sets a form's boundary
    const body = options.json !== undefined ? JSON.stringify(options.json) : (options.form ?? (options.bytes?.data as BodyInit | undefined));
    for (let n = 0; ; n++) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new TimeoutError(`No response from ${url} within ${timeout} ms.`)), timeout);
      const onAbort = () => controller.abort(signal!.reason);
      if (signal?.aborted) onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      let error: Error;
      let streaming = false;
      try {
        const res = await this.options.fetch(url, { method: op.method, headers, body, signal: controller.signal });
        streaming = streamed && res.ok;
        if (res.ok) return await read(res, url);
        error = await errorFromResponse(res);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        if (err instanceof SyntaxError) throw new ConnectionError(`The response from ${url} was not JSON.`, { cause: err });
        error = controller.signal.reason instanceof TimeoutError
          ? controller.signal.reason
          : new ConnectionError(`Could not reach ${url}: ${(err as Error).message}`, { cause: err });
      } finally {
        clearTimeout(timer);
        if (!streaming) signal?.removeEventListener("abort", onAbort);
      }
      const retryable = error instanceof ApiError ? RETRY_STATUSES.has(error.status) : error instanceof ConnectionError;
      if (n >= (op.retrySafe ? this.options.maxRetries : 0) || !retryable) throw error;
      const asked = error instanceof ApiError ? Math.min(error.retryAfterSeconds ?? 0, MAX_WAIT_SECONDS) : 0;
      const exponential = 500 * 2 ** n * (0.5 + Math.random() / 2);
      await sleep(Math.min(Math.max(exponential, asked * 1000), MAX_WAIT_SECONDS * 1000), signal);
    }
  }
}
