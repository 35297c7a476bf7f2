import { NextResponse, type NextRequest } from "next/server";
import { requestIdFrom } from "@/lib/http/request-id.ts";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { errorResponse } from "@/lib/http/respond.ts";
import { allowedMethods, isApiPath } from "@/lib/api/api-methods.ts";
import { assertSameOrigin } from "@/lib/auth/same-origin.ts";
import { isServedOverHttps } from "@/lib/http/public-origin.ts";
import { contentSecurityPolicy, HSTS } from "@/lib/http/security-headers.ts";

// Next answers these methods itself (HEAD and OPTIONS for every route); any other is refused here.
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const PAGE_METHODS = ["GET", "HEAD", "OPTIONS"];

const notAllowed = (method: string, allow: string[]) =>
  new ApiError("method_not_allowed", `${method} is not allowed here; use ${allow.join(", ")}.`, {
    headers: { Allow: allow.join(", ") },
  });

function crossSite(request: NextRequest): ApiError | undefined {
  try {
    assertSameOrigin(request);
    return undefined;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

/** Requests Next would answer with an empty or plain-text error, answered in the API's error shape. */
function refuse(request: NextRequest): ApiError | undefined {
  const { pathname } = request.nextUrl;
  const method = request.method;
  try {
    decodeURIComponent(pathname);
  } catch {
    return new ApiError("validation_failed", "The URL path is not valid percent-encoded UTF-8.", {
      details: [{ path: "(path)", message: "malformed percent-encoding" }],
    });
  }
  // The share target takes the phone's POST of a shared file, nothing else (Next would answer 405 bare).
  if (pathname === "/share-target") return method === "POST" ? undefined : notAllowed(method, ["POST"]);
  if (!isApiPath(pathname)) {
    if (!KNOWN_METHODS.has(method)) return notAllowed(method, PAGE_METHODS);
    // A server action (Next-Action) changes state with the session cookie: the API's same-origin
    // rule applies (a foreign or missing Origin would otherwise reach Next, which answers 500 or runs it).
    if (request.headers.has("next-action")) return crossSite(request);
    return undefined;
  }
  const allow = allowedMethods(pathname);
  if (!allow) return KNOWN_METHODS.has(method) ? undefined : notFound(`The endpoint ${method} ${pathname}`);
  return allow.includes(method) ? undefined : notAllowed(method, allow);
}

// Gives every response an X-Request-Id, also those no route handler makes (pages, Next's own
// 404). Route handlers reuse the id passed on here, so logs and responses agree. Pages get a
// Content-Security-Policy with a fresh nonce, which Next puts on its own scripts.
export function proxy(request: NextRequest) {
  const requestId = requestIdFrom(request.headers.get("x-request-id"));
  let refused = refuse(request);
  let https = false;
  try {
    https = isServedOverHttps(request);
  } catch (err) {
    // A malformed Host (400 invalid_host), when a request reaches Next without the front door.
    if (!(err instanceof ApiError)) throw err;
    refused ??= err;
  }
  const headers = new Headers(request.headers);
  headers.set("x-request-id", requestId);
  let csp: string | undefined;
  const { pathname } = request.nextUrl;
  if (!refused && !isApiPath(pathname)) {
    const isPage = !/\.\w+$/.test(pathname);
    const nonce = isPage ? Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64") : undefined;
    csp = contentSecurityPolicy({ nonce, https, dev: process.env.NODE_ENV === "development" });
    if (nonce) {
      headers.set("x-nonce", nonce);
      headers.set("content-security-policy", csp);
    }
  }
  const response = refused ? errorResponse(refused, requestId) : NextResponse.next({ request: { headers } });
  response.headers.set("X-Request-Id", requestId);
  if (csp) response.headers.set("Content-Security-Policy", csp);
  if (https) response.headers.set("Strict-Transport-Security", HSTS);
  return response;
}

export const config = {
  matcher: [
    // Next buffers (and beyond 10 MB truncates) the body of every request the proxy sees, so
    // uploads to these endpoints stay out of it (their handlers set X-Request-Id themselves), and
    // /mcp's calls too (transcribe_audio carries a recording: a 10 MB cut was a -32700 Parse
    // error); bodiless requests to them come in, so a wrong method still gets the API's 405.
    "/((?!_next/static|_next/image|favicon.ico|transcribe$|v1/audio/transcriptions$|mcp$).*)",
    { source: "/transcribe", missing: [{ type: "header", key: "content-type" }] },
    { source: "/v1/audio/transcriptions", missing: [{ type: "header", key: "content-type" }] },
    { source: "/mcp", missing: [{ type: "header", key: "content-type" }] },
  ],
};
