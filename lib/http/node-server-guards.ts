import http from "node:http";
import { randomUUID } from "node:crypto";
import { env } from "@/lib/env.ts";
import type { DirectApi } from "@/lib/http/direct-api.ts";

// Guards on the Next server's node:http server, applied to each request before Next sees it;
// then, in production, the API requests a route handler answers directly (direct-api.ts).
//
// Forwarded headers: Next keeps a client's own X-Forwarded-For/-Host/-Proto and only fills in
// the missing ones from the socket. Unless TRUST_PROXY says a proxy of ours sets them, the
// client's are dropped here, so client addresses (rate limits) and origins (next-auth, the
// same-origin check) come from the connection itself.
const FORWARDED = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "forwarded"];

// TRACE and CONNECT are "forbidden methods" to the Fetch standard: Next cannot even build
// the Request for them (before proxy.ts runs) and answers a plain-text 500. They are answered
// here, as the node server receives them, in the API's error shape.
const FORBIDDEN = new Set(["TRACE", "CONNECT"]);
let installed = false;

export function installNodeServerGuards(directApi?: DirectApi): void {
  if (installed) return;
  installed = true;
  const trustProxy = env().TRUST_PROXY;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    const toNext = () => emit.apply(this, [event, ...args] as Parameters<typeof emit>);
    if (event !== "request") return toNext();
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    if (!trustProxy) for (const name of FORWARDED) delete req.headers[name];
    if (!FORBIDDEN.has(req.method ?? "")) return directApi?.take(req, res, toNext) || toNext();
    const requestId = randomUUID();
    const body = JSON.stringify({
      error: { code: "method_not_allowed", message: `${req.method} is not supported by this server.`, request_id: requestId },
    });
    res.writeHead(405, {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "X-Request-Id": requestId,
      Allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
    });
    res.end(body);
    return true;
  } as typeof emit;
}
