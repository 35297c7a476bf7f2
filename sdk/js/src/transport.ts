// One HTTP exchange with timeouts and retries. Retries (timeouts, network errors, 429, 503) happen
// only for operations marked retrySafe; the wait doubles from 0.5 s with jitter, or is what the
// service's Retry-After asks (capped), whichever is longer.
import { apiError, ApiError, ConnectionError, TimeoutError, type ErrorDetail } from "./errors.js";
import type { DocumentOperationId } from "./generated/operations.js";
import type { JsonAnswer, JsonBody, Operation, PathParams, QueryParams } from "./operations.js";

export type TransportOptions = {
  baseUrl: string;
  apiKey: string;
  /** Milliseconds per attempt. */
  timeout: number;
  maxRetries: number;
  fetch: typeof fetch;
};

/** One call of operation Id: its parameters and body as the OpenAPI document types them. */
export type RequestOptions<Id extends DocumentOperationId = DocumentOperationId> = {
  pathParams?: PathParams<Id>;
  query?: QueryParams<Id>;
  headers?: Record<string, string>;
  json?: JsonBody<Id>;
  form?: FormData;
  timeout?: number;
  signal?: AbortSignal;
};

const RETRY_STATUSES = new Set([429, 503]);
const MAX_RETRY_AFTER_SECONDS = 60;

type Values = Record<string, string | number | boolean | undefined>;

export function buildUrl<Id extends DocumentOperationId>(baseUrl: string, op: Operation<Id>, options: RequestOptions<Id>): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = (options.pathParams as Values | undefined)?.[name];
    if (value === undefined || value === "") throw new TypeError(`${name} is required.`);
    return encodeURIComponent(value);
  });
  const url = new URL(baseUrl.replace(/\/+$/, "") + path);
  for (const [name, value] of Object.entries((options.query ?? {}) as Values)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

function parseRetryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

async function errorFromResponse(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  let body: { error?: { code?: string; message?: string; request_id?: string; details?: ErrorDetail[] } } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not the API's error shape (a proxy's page, say): keep the status
  }
  const error = body?.error ?? {};
  return apiError({
    status: res.status,
    code: error.code ?? `http_${res.status}`,
    message: error.message ?? (text.slice(0, 200) || res.statusText),
    requestId: error.request_id ?? res.headers.get("x-request-id"),
    details: error.details,
    retryAfterSeconds: parseRetryAfter(res.headers.get("retry-after")),
  });
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

export function backoffMs(attempt: number, retryAfterSeconds: number | null): number {
  const exponential = 500 * 2 ** attempt * (0.5 + Math.random() / 2);
  const asked = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) * 1000;
  return Math.min(Math.max(exponential, asked), MAX_RETRY_AFTER_SECONDS * 1000);
}

/**
 * One attempt: fetch with a timeout that also covers `read`. A streamed answer (`stream`) is
 * returned unread: the timeout then ends when the answer begins, and the caller's signal goes on
 * aborting the body.
 */
async function attempt<T>(
  transport: TransportOptions,
  url: string,
  init: RequestInit,
  timeout: number,
  signal: AbortSignal | undefined,
  read: (res: Response) => Promise<T>,
  stream = false,
): Promise<{ value: T } | { error: Error }> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeout);
  const onAbort = () => controller.abort(signal!.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  let streaming = false;
  try {
    const res = await transport.fetch(url, { ...init, signal: controller.signal });
    if (!res.ok) return { error: await errorFromResponse(res) };
    streaming = stream;
    return { value: await read(res) };
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (timedOut) return { error: new TimeoutError(`No response from ${url} within ${timeout} ms.`, { cause: err }) };
    if (err instanceof SyntaxError) throw new ConnectionError(`The response from ${url} was not JSON.`, { cause: err });
    return { error: new ConnectionError(`Could not reach ${url}: ${(err as Error).message}`, { cause: err }) };
  } finally {
    clearTimeout(timer);
    if (!streaming) signal?.removeEventListener("abort", onAbort);
  }
}

function retryable(error: Error): boolean {
  return error instanceof ApiError ? RETRY_STATUSES.has(error.status) : error instanceof ConnectionError;
}

/** Attempts until one succeeds, retrying what may be retried (retry-safe operations only). */
async function withRetries<T>(transport: TransportOptions, op: Operation, signal: AbortSignal | undefined, once: () => Promise<{ value: T } | { error: Error }>): Promise<T> {
  const retries = op.retrySafe ? transport.maxRetries : 0;
  for (let n = 0; ; n++) {
    const result = await once();
    if (!("error" in result)) return result.value;
    const { error } = result;
    if (n >= retries || !retryable(error)) throw error;
    await sleep(backoffMs(n, error instanceof ApiError ? error.retryAfterSeconds : null), signal);
  }
}

function requestInit<Id extends DocumentOperationId>(transport: TransportOptions, op: Operation<Id>, options: RequestOptions<Id>, accept: string): RequestInit {
  const headers: Record<string, string> = { authorization: `Bearer ${transport.apiKey}`, accept, ...options.headers };
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = options.form; // fetch sets the multipart boundary
  }
  return { method: op.method, headers, body };
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

export async function request<Id extends DocumentOperationId>(
  transport: TransportOptions,
  op: Operation<Id>,
  options: RequestOptions<Id> = {},
): Promise<JsonAnswer<Id>> {
  const url = buildUrl(transport.baseUrl, op, options);
  const init = requestInit(transport, op, options, "application/json");
  const timeout = options.timeout ?? transport.timeout;
  return (await withRetries(transport, op, options.signal, () => attempt(transport, url, init, timeout, options.signal, readJson))) as JsonAnswer<Id>;
}

/**
 * Opens a streamed answer (Accept: text/event-stream): retried like request() until the service
 * answers, then the Response is returned unread. `timeout` covers the wait for the answer to begin;
 * the caller's signal also aborts the stream later.
 */
export async function openStream<Id extends DocumentOperationId>(
  transport: TransportOptions,
  op: Operation<Id>,
  options: RequestOptions<Id> = {},
  accept = "text/event-stream",
): Promise<{ res: Response; url: string }> {
  const url = buildUrl(transport.baseUrl, op, options);
  const init = requestInit(transport, op, options, accept);
  const timeout = options.timeout ?? transport.timeout;
  const res = await withRetries(transport, op, options.signal, () => attempt(transport, url, init, timeout, options.signal, async (r) => r, true));
  return { res, url };
}
