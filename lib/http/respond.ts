import { ApiError } from "@/lib/http/errors.ts";

export function json(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  headers.set("X-Content-Type-Options", "nosniff");
  const body = JSON.stringify(data);
  headers.set("Content-Length", String(Buffer.byteLength(body)));
  return new Response(body, { ...init, headers });
}

export function errorResponse(err: ApiError, requestId: string): Response {
  const { details, headers } = err.options;
  const body = { error: { code: err.code, message: err.message, request_id: requestId, ...(details && { details }) } };
  return json(body, { status: err.status, headers });
}
