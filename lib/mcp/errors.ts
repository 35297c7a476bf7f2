import { ProtocolErrorCode } from "@modelcontextprotocol/server";
import { toApiError } from "@/lib/api/with-request.ts";
import type { ApiError } from "@/lib/http/errors.ts";
import { errorFields, log } from "@/lib/log.ts";

// What an assistant reads when a tool, a resource or a prompt fails: the API's error code and
// message, with the request id, as the API would answer them. Anything else (a database error that
// quoted the Prisma call and PostgreSQL's 22021, say) is the API's generic
// internal_error, its detail in the log only. The SDK would otherwise pass any error's message on.

/** The failure as the API answers it, logged when it is ours (5xx). */
function asApiError(err: unknown, requestId: string): ApiError {
  const apiError = toApiError(err);
  if (apiError.status >= 500) log.error("mcp call failed", { request_id: requestId, ...errorFields(err) });
  return apiError;
}

const errorBody = (err: ApiError, requestId: string) => ({
  error: { code: err.code, message: err.message, request_id: requestId, ...(err.options.details && { details: err.options.details }) },
});

/** A tool's refusal (a result the model reads, not a protocol error): the API's error body as its text. */
export function toolRefusal(err: unknown, requestId: string) {
  const body = errorBody(asApiError(err, requestId), requestId);
  return { isError: true, content: [{ type: "text" as const, text: JSON.stringify(body) }] };
}

// JSON-RPC codes: invalid params for the caller's mistakes, a missing note among them (2026-07-28
// replaced 2025's "resource not found", -32002, by -32602, and the SDK answers it on every revision;
// the data's not_found tells the two apart), internal error for ours.
const jsonRpcCode = (status: number) => (status < 500 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError);

/**
 * A JSON-RPC error of a resource or prompt: the SDK answers a thrown error's code, message and data
 * as they are (its McpError would put "MCP error -32602:" before the API's message).
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: ReturnType<typeof errorBody>,
  ) {
    super(message);
    this.name = "ProtocolError";
  }
}

/** A resource's or prompt's failure as a JSON-RPC error: the API's message, and its error body as data. */
export function protocolError(err: unknown, requestId: string): ProtocolError {
  const apiError = asApiError(err, requestId);
  return new ProtocolError(jsonRpcCode(apiError.status), apiError.message, errorBody(apiError, requestId));
}

/** A resource or prompt callback whose failures reach the client as protocolError says. */
export function answering<A extends unknown[], R>(requestId: string, callback: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await callback(...args);
    } catch (err) {
      throw protocolError(err, requestId);
    }
  };
}

/**
 * What the SDK's handler reports beside its answer (a request it refused, as a missing Mcp-Method
 * header, or one of its own failures): the client has the JSON-RPC error, the log the cause.
 */
export function logHandlerError(err: Error): void {
  log.warn("mcp request refused or failed", errorFields(err));
}
