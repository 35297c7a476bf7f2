import type { RouteHandler } from "@/lib/api/with-request.ts";

export type CallOptions = {
  method?: string;
  path: string;
  key?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  params?: Record<string, string>;
};

export type CallResult = { status: number; headers: Headers; body: any; text: string };

/** Calls a route handler exactly as Next does: a Web Request and a context whose params is a promise. */
export async function call(handler: RouteHandler, options: CallOptions): Promise<CallResult> {
  const headers = new Headers(options.headers);
  if (options.key !== undefined) headers.set("authorization", `Bearer ${options.key}`);
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  // A streamed body needs duplex "half", as in Next's own requests.
  const init: RequestInit & { duplex?: "half" } = { method: options.method ?? "GET", headers, body };
  if (body instanceof ReadableStream) init.duplex = "half";
  const req = new Request(`http://localhost${options.path}`, init);
  const res = await handler(req, { params: Promise.resolve(options.params ?? {}) });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
