import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { isAllowedHost } from "@/lib/http/allowed-host.ts";
import { clientIp } from "@/lib/http/client-ip.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { publicOrigin } from "@/lib/http/public-origin.ts";
import { oauthProvider } from "@/lib/oauth/provider.ts";

// oidc-provider is a Koa app: it answers Node's (req, res), while the app's routes take a Web
// Request and return a Response. The bridge is a loopback HTTP server in this process (port 0 on
// 127.0.0.1, started on first use, unref'd) that route handlers forward to with fetch. A real
// socket gives the library the IncomingMessage and ServerResponse it was written and tested for
// (streams, cookies, redirects), with no imitation of Node's objects to keep in step across
// Node or Koa releases; it costs one local round trip, on OAuth requests only (a connector makes
// a handful a month). It works the same under `npm start`, `next dev` and the API tests, which
// call route handlers in-process. The public origin travels as X-Forwarded-Host and -Proto (the
// provider runs with proxy = true); a per-process secret header keeps other local programs from
// speaking to the loopback port with forged ones.

const SECRET_HEADER = "x-voicedraft-bridge";
const ISSUER_HEADER = "x-voicedraft-issuer";
type Bridge = { port: number; secret: string };
const kept = globalThis as unknown as { voicedraftOAuthBridge?: Promise<Bridge> };

const isSecret = (given: unknown, secret: string) =>
  typeof given === "string" && given.length === secret.length && timingSafeEqual(Buffer.from(given), Buffer.from(secret));

// Each provider's Koa callback, made once: kept beside the provider itself (a WeakMap), so it goes
// when the provider does (lib/oauth/provider.ts keeps a few, by issuer) and the bridge keeps no
// per-issuer state of its own. It kept one per Host value, never trimmed: 14,279 invented host
// names grew the process by 1.3 GB (issue 60).
const callbacks = new WeakMap<object, RequestListener>();

async function callbackOf(issuer: string): Promise<RequestListener> {
  const provider = await oauthProvider(issuer);
  let callback = callbacks.get(provider);
  if (!callback) callbacks.set(provider, (callback = provider.callback()));
  return callback;
}

function startBridge(): Promise<Bridge> {
  const secret = randomBytes(24).toString("base64url");
  const server = createServer(async (req, res) => {
    const issuer = req.headers[ISSUER_HEADER];
    if (!isSecret(req.headers[SECRET_HEADER], secret) || typeof issuer !== "string") {
      res.writeHead(404).end();
      return;
    }
    delete req.headers[SECRET_HEADER];
    try {
      (await callbackOf(issuer))(req, res);
    } catch {
      res.writeHead(503).end();
    }
  });
  server.unref();
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve({ port: (server.address() as AddressInfo).port, secret }));
  });
}

function bridge(): Promise<Bridge> {
  kept.voicedraftOAuthBridge ??= startBridge().catch((err) => {
    kept.voicedraftOAuthBridge = undefined;
    throw err;
  });
  return kept.voicedraftOAuthBridge;
}

// Hop-by-hop and body-framing headers fetch sets itself; Accept-Encoding so the answer comes
// back as the library wrote it (fetch would decode it but keep Content-Encoding).
const DROPPED = ["host", "connection", "keep-alive", "transfer-encoding", "content-length", "accept-encoding", SECRET_HEADER, ISSUER_HEADER];

/** Answers a request of the OAuth server: `path` is the provider's path (e.g. /oauth/token). */
export async function forwardToOAuthServer(req: Request, path: string): Promise<Response> {
  // The OAuth server has one issuer, this site: a request sent to a name that is not one of this
  // server's (lib/http/allowed-host.ts, the check /mcp makes) gets no authorization server of its own.
  const issuer = publicOrigin(req); // a malformed Host: 400 invalid_host, before it is weighed
  if (!isAllowedHost(req)) {
    throw new ApiError("unknown_host", "This authorization server answers the names it is configured with: set NEXTAUTH_URL to the address your assistant uses.");
  }
  const { port, secret } = await bridge();
  const origin = new URL(issuer);
  const headers = new Headers(req.headers);
  for (const name of DROPPED) headers.delete(name);
  headers.set("x-forwarded-host", origin.host);
  headers.set("x-forwarded-proto", origin.protocol.slice(0, -1));
  headers.set("x-forwarded-for", clientIp(req.headers));
  headers.set(SECRET_HEADER, secret);
  headers.set(ISSUER_HEADER, issuer);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const answer = await fetch(`http://127.0.0.1:${port}${path}${new URL(req.url).search}`, {
    method: req.method,
    headers,
    body: hasBody ? await req.arrayBuffer() : undefined,
    redirect: "manual",
  });
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
}
