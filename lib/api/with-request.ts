import { ApiError, internalError } from "@/lib/http/errors.ts";
import { errorResponse } from "@/lib/http/respond.ts";
import { errorFields, log } from "@/lib/log.ts";
import { requestIdFrom } from "@/lib/http/request-id.ts";
import { assertId } from "@/lib/http/parse.ts";

export type RouteParams = Record<string, string | string[] | undefined>;
export type RouteContext = { params: Promise<RouteParams> };
export type RequestContext<P extends RouteParams = RouteParams> = { req: Request; params: P; requestId: string };
export type RouteHandler = (req: Request, ctx: RouteContext) => Promise<Response>;

async function routeParams(ctx: RouteContext | undefined): Promise<RouteParams> {
  let params: RouteParams;
  try {
    params = (await ctx?.params) ?? {};
  } catch {
    // Next decodes path segments lazily; a malformed %-sequence fails here.
    throw new ApiError("validation_failed", "The URL path is not valid percent-encoded UTF-8.", {
      details: [{ path: "(path)", message: "malformed percent-encoding" }],
    });
  }
  // Every id in an API path, before any query sees it.
  for (const [name, value] of Object.entries(params)) if (typeof value === "string") assertId(name, value);
  return params;
}

function isDatabaseDown(err: unknown): boolean {
  const text = `${(err as { code?: string })?.code ?? ""} ${(err as Error)?.message ?? ""}`;
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|P1001|P1017|Can't reach database|Connection terminated/i.test(text);
}

/** Any failure as the API answers it: an ApiError as it is, the database's absence as 503, the rest a generic 500. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isDatabaseDown(err)) {
    return new ApiError("database_unavailable", "The database is unreachable; try again shortly.", {
      headers: { "Retry-After": "5" },
    });
  }
  if ((err as { code?: string })?.code === "P2028") {
    return new ApiError("service_unavailable", "The service is busy; try again in a moment.", {
      headers: { "Retry-After": "2" },
    });
  }
  return internalError();
}

/**
 * The edge of every route: request id, awaited params, one structured log line per request,
 * and the single catch that turns any error into the one error shape.
 */
export function withRequest<P extends RouteParams = RouteParams>(
  handler: (ctx: RequestContext<P>) => Promise<Response>,
): RouteHandler {
  return async (req, ctx) => {
    const started = performance.now();
    const requestId = requestIdFrom(req.headers.get("x-request-id"));
    let response: Response;
    try {
      const params = (await routeParams(ctx)) as P;
      response = await handler({ req, params, requestId });
    } catch (err) {
      const apiError = toApiError(err);
      if (apiError.status >= 500) log.error("request failed", { request_id: requestId, ...errorFields(err) });
      response = errorResponse(apiError, requestId);
    }
    response.headers.set("X-Request-Id", requestId);
    log.info("request", {
      request_id: requestId,
      method: req.method,
      route: new URL(req.url).pathname,
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
    });
    return response;
  };
}
