import http from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, internalError } from "@/lib/http/errors.ts";
import { assertQueryEncoding } from "@/lib/http/parse.ts";
import { invalidHost, isValidHost } from "@/lib/http/public-origin.ts";
import { bearerOfApiRequest, type KeyTurns } from "@/lib/http/key-turns.ts";
import { requestIdFrom } from "@/lib/http/request-id.ts";
import { log } from "@/lib/log.ts";

// The production server's own node:http server, in front of Next's request handler (Next's
// documented custom server: `next({ … }).getRequestHandler()`, scripts/serve.ts). Every request
// goes to Next; this only does what must happen before Next sees one, answers what Node or Next
// would otherwise answer bare, outside the API's error shape, and refuses a key already over its
// limit this minute without Next's work (`decided`: lib/rate-limit/refused-keys.ts).

/** What Next's handler is to this server: node's request listener signature. */
export type NextHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<unknown>;

// Forwarded headers: Next keeps a client's own X-Forwarded-For/-Host/-Proto and only fills in the
// missing ones. Unless TRUST_PROXY says a proxy of ours sets them, the client's are dropped, so
// client addresses (rate limits) and origins (next-auth, the same-origin check) come from the
// connection itself.
const FORWARDED = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "forwarded"];

// TRACE and CONNECT are "forbidden methods" to the Fetch standard: Next cannot even build the
// Request for them (before proxy.ts runs) and answers a plain-text 500.
const FORBIDDEN = new Set(["TRACE", "CONNECT"]);
const ALLOW = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

function errorBody(err: ApiError, requestId: string): string {
  return JSON.stringify({ error: { code: err.code, message: err.message, request_id: requestId } });
}

const BASE_HEADERS = {
  "Content-Type": "application/json; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};

function refuse(res: http.ServerResponse, err: ApiError, requestId: string): void {
  const body = errorBody(err, requestId);
  res.writeHead(err.status, { ...BASE_HEADERS, ...err.options.headers, "Content-Length": Buffer.byteLength(body), "X-Request-Id": requestId });
  res.end(body);
}

// Refusals held at once, each an open socket and a timer: beyond, they are answered at once.
const HELD_MAX = 1000;
let held = 0;

/** `refuse` after `ms` (a client still sending after its 429: refused-keys.ts), or at once when too many are held. */
function refuseLater(res: http.ServerResponse, err: ApiError, requestId: string, ms: number): void {
  if (ms <= 0 || held >= HELD_MAX) return refuse(res, err, requestId);
  held += 1;
  const release = () => {
    held -= 1;
    clearTimeout(timer);
    res.off("close", release);
  };
  const timer = setTimeout(() => {
    release();
    if (!res.destroyed) refuse(res, err, requestId);
  }, ms);
  res.on("close", release);
}

/** An answer written straight to a socket whose request Node could not parse (no response object). */
function refuseOnSocket(socket: Duplex, err: ApiError): void {
  const requestId = requestIdFrom(null);
  const body = errorBody(err, requestId);
  const headers = { ...BASE_HEADERS, ...err.options.headers, "Content-Length": Buffer.byteLength(body), "X-Request-Id": requestId, Connection: "close" };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.end(`HTTP/1.1 ${err.status} ${http.STATUS_CODES[err.status]}\r\n${head}\r\n${body}`);
}

const methodNotAllowed = (method: string) =>
  new ApiError("method_not_allowed", `${method} is not supported by this server.`, { headers: { Allow: ALLOW } });

/** Node's parser errors (llhttp's codes) as the API's error answers. */
export function parserRefusal(err: NodeJS.ErrnoException): ApiError {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError("request_header_fields_too_large", "The URL or the headers are too large (16 KB in all at most); send long values in the body.");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError("request_timeout", "The request took too long to arrive; send it again.");
    default:
      return new ApiError("malformed_request", "The request is not valid HTTP/1.1: a URL is ASCII, other characters percent-encoded.");
  }
}

/**
 * Prepares a request for Next: forwarded headers of the client dropped (unless `trustProxy`),
 * the client's address from the socket, and one request id on the request and its response
 * (proxy.ts and the route handlers reuse it, so even Next's own redirects carry it).
 */
export function prepareRequest(req: http.IncomingMessage, res: http.ServerResponse, trustProxy: boolean): string {
  if (!trustProxy) {
    for (const name of FORWARDED) delete req.headers[name];
    const address = req.socket.remoteAddress;
    if (address) req.headers["x-forwarded-for"] = address;
  }
  const header = req.headers["x-request-id"];
  const requestId = requestIdFrom(typeof header === "string" ? header : null);
  req.headers["x-request-id"] = requestId;
  res.setHeader("X-Request-Id", requestId);
  return requestId;
}

/**
 * 400 invalid_encoding for a query string that is not percent-encoded UTF-8, as the route handlers
 * answer (parseQuery). Checked here, on the URL as it arrived: Next rebuilds the query before a
 * route handler or proxy.ts sees it, and `q=%FF` reached the handler as U+FFFD, `%zz` as a literal.
 */
export function queryRefusal(url: string | undefined): ApiError | undefined {
  const at = url?.indexOf("?") ?? -1;
  if (at < 0) return undefined;
  try {
    assertQueryEncoding(url!.slice(at));
    return undefined;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

/**
 * 400 invalid_host for a Host that is missing, repeated or not a host with an optional port (and,
 * behind a proxy of ours, such an X-Forwarded-Host): Next, the OAuth server and the public origin
 * each failed on one in their own way (500 or 503 without a body). Node's own check of a missing
 * Host answered an empty 400, so the server leaves it to this one (requireHostHeader: false).
 */
export function hostRefusal(req: http.IncomingMessage, trustProxy: boolean): ApiError | undefined {
  const hosts = req.rawHeaders.filter((_, i) => i % 2 === 0 && req.rawHeaders[i].toLowerCase() === "host").length;
  if (hosts !== 1 || !isValidHost(req.headers.host ?? "")) return invalidHost("Host");
  const forwarded = trustProxy ? [req.headers["x-forwarded-host"] ?? []].flat()[0] : undefined;
  if (forwarded !== undefined && !isValidHost(forwarded.split(",")[0].trim())) return invalidHost("X-Forwarded-Host");
  return undefined;
}

/** The server every request of the app arrives at; `handle` is Next's request handler. */
export function createFrontDoor(
  handle: NextHandler,
  options: {
    trustProxy: boolean;
    onError(err: unknown): void;
    /**
     * A refusal already decided for this request (a key over its limit: lib/rate-limit/refused-keys.ts),
     * answered without Next after `holdMs`; `count`: the how-manieth such refusal of its kind.
     */
    decided?(req: http.IncomingMessage): { error: ApiError; count: number; holdMs: number } | undefined;
    /** An API key's requests take turns (key-turns.ts); undefined: every request goes on at once. */
    turns?: KeyTurns;
  },
): http.Server {
  const server = http.createServer({ requireHostHeader: false }, (req, res) => {
    const requestId = prepareRequest(req, res, options.trustProxy);
    if (FORBIDDEN.has(req.method ?? "")) return refuse(res, methodNotAllowed(req.method!), requestId);
    const badHost = hostRefusal(req, options.trustProxy);
    if (badHost) return refuse(res, badHost, requestId);
    const badQuery = queryRefusal(req.url);
    if (badQuery) return refuse(res, badQuery, requestId);
    // A key a route refused this minute is refused again here, before Next.
    const decided = options.decided?.(req);
    if (decided) {
      const { error, count, holdMs } = decided;
      // The 1st, 10th, 100th… of a flood: it must not flood the log too (one key wrote 1,450 lines a second).
      if (Number.isInteger(Math.log10(count))) {
        log.info("request", { request_id: requestId, method: req.method, route: req.url?.split("?", 1)[0], status: error.status, held_ms: holdMs, at: "front door", refused_this_window: count });
      }
      return refuseLater(res, error, requestId, holdMs);
    }
    const start = () =>
      void handle(req, res).catch((err: unknown) => {
        // Next answers its own failures; this is the last resort, for a failure outside them.
        options.onError(err);
        if (!res.headersSent) refuse(res, internalError(), requestId);
        else res.destroy();
      });
    // An API key's requests wait for their turn here (a key cannot take the whole server).
    const key = bearerOfApiRequest(req);
    if (!options.turns || !key) return start();
    const full = options.turns(key, res, start);
    if (full) refuse(res, full, requestId);
  });
  // An idle kept-alive connection is closed after 65 s, not Node's 5 s: a client that reuses the
  // connection just as the server closes it gets ECONNRESET on a request never seen here (an e2e
  // test met it under load). Clients close their idle connections sooner than this (undici at the
  // Keep-Alive hint; browsers retry). Headers must still arrive in time, so a little more for them.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // CONNECT never reaches the request listener: node:http hands it over as a tunnel request.
  server.on("connect", (_req: http.IncomingMessage, socket: Duplex) => refuseOnSocket(socket, methodNotAllowed("CONNECT")));
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A client that left, or a socket already answered, gets nothing more.
    if (err.code === "ECONNRESET" || !socket.writable) return socket.destroy();
    refuseOnSocket(socket, parserRefusal(err));
  });
  return server;
}
