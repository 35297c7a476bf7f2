import { buildOpenApiDocument } from "@/lib/openapi/document.ts";
import { HTTP_METHODS } from "@/lib/openapi/types.ts";

// Which methods each API path answers, so a wrong method gets 405 in the error shape with Allow
// (Next's own answer is an empty 405). The public routes come from the OpenAPI document, whose
// test checks it against the route files; the few routes outside it are listed here.
const UNDOCUMENTED: Record<string, string[]> = {
  "/api/auth/{nextauth}": ["GET", "POST"],
  "/api/internal/generation/callback": ["POST"],
  "/api/internal/optimizations/recover": ["POST"],
  "/api/internal/optimizations/{id}": ["GET"],
};

type Route = { pattern: RegExp; allow: string[] };

/** The paths of the API (answered in its error shape), as opposed to pages and assets. */
export const isApiPath = (pathname: string) => /^\/(api\/|transcribe$|v1\/audio\/)/.test(pathname);

function toRoute(path: string, methods: string[]): Route {
  const catchAll = path === "/api/auth/{nextauth}";
  const source = path.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, catchAll ? ".+" : "[^/]+");
  const allow = new Set(methods);
  if (allow.has("GET")) allow.add("HEAD");
  allow.add("OPTIONS");
  return { pattern: new RegExp(`^${source}$`), allow: [...allow].sort() };
}

let routes: Route[] | undefined;
const paramCount = (route: Route) => route.pattern.source.split("[^/]+").length;

function apiRoutes(): Route[] {
  routes ??= [
    ...Object.entries(buildOpenApiDocument().paths).map(([path, item]) =>
      toRoute(path, HTTP_METHODS.filter((m) => item[m]).map((m) => m.toUpperCase())),
    ),
    ...Object.entries(UNDOCUMENTED).map(([path, methods]) => toRoute(path, methods)),
  ].sort((a, b) => paramCount(a) - paramCount(b)); // a static path wins over {id}, as in Next
  return routes;
}

/** The methods the route at this path answers; undefined when no API route serves the path. */
export function allowedMethods(pathname: string): string[] | undefined {
  return apiRoutes().find((route) => route.pattern.test(pathname))?.allow;
}
