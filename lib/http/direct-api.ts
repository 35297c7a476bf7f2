import { readFileSync } from "node:fs";
import type http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import nextConfig from "@/next.config.ts";
import { isApiPath } from "@/lib/api/api-methods.ts";
import type { RouteHandler } from "@/lib/api/with-request.ts";
import { internalError } from "@/lib/http/errors.ts";
import { isServedOverHttps } from "@/lib/http/public-origin.ts";
import { requestIdFrom } from "@/lib/http/request-id.ts";
import { errorResponse } from "@/lib/http/respond.ts";
import { HSTS } from "@/lib/http/security-headers.ts";
import { errorFields, log } from "@/lib/log.ts";

// The API's requests, handed straight to their route handlers in the production server.
//
// Next's way to a route handler (its router, proxy.ts, its request and response wrappers) costs
// more CPU per request than a typical API call's own work: GET /api/v1/dictionary spent ~4.5 ms
// of CPU in the server, of which the handler ~2 ms (bench:api). Here a request for an API route
// whose module exports the method is given to that export: the very module Next would call,
// loaded from the same build, so nothing runs twice and every route keeps its one definition.
// Everything else goes to Next as before: pages, assets, sign-in, HEAD and OPTIONS, methods a
// route lacks, paths no route serves, and any path Next would normalize first. What proxy.ts and
// next.config.ts add to API answers is added here (withRequest adds the X-Request-Id).

type RouteExports = Partial<Record<string, RouteHandler>>;
type Route = { pathname: string; pattern: RegExp; names: string[]; entry: string; exports?: Promise<RouteExports | undefined> };
type Taken = { route: Route; params: Record<string, string>; url: string };

const DIRECT_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** The API routes of a production build, static paths first (as Next matches them); none without a build. */
export function apiRoutesOfBuild(distDir: string): Route[] {
  let manifest: Record<string, string>;
  try {
    manifest = JSON.parse(readFileSync(path.join(distDir, "server", "app-paths-manifest.json"), "utf8"));
  } catch {
    return [];
  }
  const routes: Route[] = [];
  for (const [page, file] of Object.entries(manifest)) {
    if (!page.endsWith("/route") || page.includes("[...") || page.includes("[[")) continue;
    const pathname = page.slice(0, -"/route".length);
    if (!isApiPath(pathname) || /[()@]/.test(pathname)) continue;
    const names: string[] = [];
    const source = pathname
      .split("/")
      .map((segment) => {
        const param = /^\[(\w+)\]$/.exec(segment);
        if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(param[1]);
        return "([^/]+)";
      })
      .join("/");
    routes.push({ pathname, pattern: new RegExp(`^${source}$`), names, entry: path.join(distDir, "server", file) });
  }
  return routes.sort((a, b) => a.names.length - b.names.length);
}

/**
 * The handlers a route module exports, from Next's compiled module (its `routeModule`); undefined
 * when the build's shape is not the one expected, and the route is then left to Next.
 */
async function loadExports(route: Route): Promise<RouteExports | undefined> {
  try {
    // A require of the build's own files at run time, which the bundler must leave alone.
    const load = createRequire(path.join(/*turbopackIgnore: true*/ process.cwd(), "package.json"));
    const compiled = load(route.entry) as { routeModule?: { ensureUserland?: () => Promise<void>; userland?: RouteExports } };
    await compiled.routeModule?.ensureUserland?.();
    const userland = compiled.routeModule?.userland;
    if (userland && typeof userland === "object") return userland;
    log.warn("api route left to Next: its compiled module has no route handlers", { route: route.pathname });
  } catch (err) {
    log.warn("api route left to Next: its compiled module did not load", { route: route.pathname, ...errorFields(err) });
  }
  return undefined;
}

function match(routes: Route[], req: http.IncomingMessage): Taken | undefined {
  const method = req.method ?? "";
  const target = req.url ?? "";
  const host = req.headers.host;
  if (!DIRECT_METHODS.has(method) || !target.startsWith("/") || !host) return undefined;
  const query = target.indexOf("?");
  const pathname = query === -1 ? target : target.slice(0, query);
  for (const route of routes) {
    const found = route.pattern.exec(pathname);
    if (!found) continue;
    const params: Record<string, string> = {};
    try {
      route.names.forEach((name, i) => (params[name] = decodeURIComponent(found[i + 1])));
      return { route, params, url: new URL(target, `http://${host}`).href };
    } catch {
      return undefined; // malformed %-encoding or Host: Next (and proxy.ts) answer those
    }
  }
  return undefined;
}

function requestOf(req: http.IncomingMessage, url: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.set(name, value);
  }
  const bodiless = req.method === "GET" || req.method === "HEAD";
  const body = bodiless ? null : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
  return new Request(url, { method: req.method, headers, body, signal, duplex: "half" } as RequestInit);
}

// Compressed as Next compresses its answers (gzip, for clients that accept it): JSON and text,
// never event streams, which must leave event by event.
const COMPRESSIBLE = /^(application\/(json|problem\+json|yaml)|text\/(?!event-stream))/i;

function gzipWanted(req: http.IncomingMessage, response: Response): boolean {
  if (!response.body || response.headers.has("content-encoding")) return false;
  const length = Number(response.headers.get("content-length") ?? Infinity);
  return length >= 1024 && COMPRESSIBLE.test(response.headers.get("content-type") ?? "") && /\bgzip\b/i.test(String(req.headers["accept-encoding"] ?? ""));
}

async function respond(response: Response, req: http.IncomingMessage, request: Request, res: http.ServerResponse, siteHeaders: [string, string][]) {
  const headers: http.OutgoingHttpHeaders = Object.fromEntries(siteHeaders);
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  if (isServedOverHttps(request)) headers["strict-transport-security"] = HSTS;
  const gzip = gzipWanted(req, response);
  if (gzip) {
    headers["content-encoding"] = "gzip";
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
    delete headers["content-length"];
  }
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  // Streams (server-sent events) go out as they come; a client that leaves cancels the stream.
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  await (gzip ? pipeline(body, createGzip(), res) : pipeline(body, res)).catch(() => res.destroy());
}

/**
 * Runs a route handler on a node:http request and writes its answer to `res`, streamed, with
 * `siteHeaders` under the handler's own. The handler's request is aborted when the client leaves.
 */
export async function answer(
  handler: RouteHandler,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  { url, params = {}, siteHeaders = [] }: { url: string; params?: Record<string, string>; siteHeaders?: [string, string][] },
): Promise<void> {
  const aborted = new AbortController();
  res.once("close", () => res.writableFinished || aborted.abort());
  const request = requestOf(req, url, aborted.signal);
  let response: Response;
  try {
    response = await handler(request, { params: Promise.resolve(params) });
  } catch (err) {
    // Route handlers answer their own errors (withRequest); this is the last resort.
    const requestId = requestIdFrom((req.headers["x-request-id"] as string | undefined) ?? null);
    log.error("request failed", { request_id: requestId, ...errorFields(err) });
    response = errorResponse(internalError(), requestId);
    response.headers.set("X-Request-Id", requestId);
  }
  await respond(response, req, request, res, siteHeaders);
}

/** The headers next.config.ts puts on every response. */
async function siteHeadersOf(): Promise<[string, string][]> {
  const rules = (await nextConfig.headers?.()) ?? [];
  return rules.filter((rule) => rule.source === "/:path*").flatMap((rule) => rule.headers.map((h): [string, string] => [h.key.toLowerCase(), h.value]));
}

export type DirectApi = {
  /** Takes the request when a route handler answers it directly; false leaves it to Next. */
  take(req: http.IncomingMessage, res: http.ServerResponse, toNext: () => void): boolean;
  routes: number;
};

/** The direct way to the API routes of the build in `distDir` (relative to the working directory). */
export async function createDirectApi(distDir = nextConfig.distDir ?? ".next"): Promise<DirectApi> {
  const routes = apiRoutesOfBuild(path.resolve(/*turbopackIgnore: true*/ distDir));
  const siteHeaders = await siteHeadersOf();
  return {
    routes: routes.length,
    take(req, res, toNext) {
      const taken = match(routes, req);
      if (!taken) return false;
      const { route } = taken;
      route.exports ??= loadExports(route);
      void route.exports
        .then((exports) => {
          const handler = exports?.[req.method!];
          if (typeof handler !== "function") return toNext();
          return answer(handler, req, res, { url: taken.url, params: taken.params, siteHeaders });
        })
        .catch((err) => {
          log.error("direct api request failed", { route: route.pathname, ...errorFields(err) });
          res.destroy();
        });
      return true;
    },
  };
}
