import { API_ROUTES } from "@/lib/api/route-table.ts";

// Which methods each API path answers, so a wrong method gets 405 in the error shape with Allow
// (Next's own answer is an empty 405). From the route table, which `npm run generate:routes` reads
// off the route files (small enough for the edge: proxy.ts).

type Route = { pattern: RegExp; allow: string[]; rank: number };

/** The paths of the API (answered in its error shape), as opposed to pages and assets. */
export const isApiPath = (pathname: string) => /^\/(api\/|transcribe$|v1\/audio\/)/.test(pathname);

function toRoute(path: string, methods: readonly string[]): Route {
  const source = path
    .replace(/[.+?^$()|[\]\\]/g, "\\$&")
    .replace(/\{\w+\*\}/g, ".+")
    .replace(/\{\w+\}/g, "[^/]+");
  const allow = new Set(methods);
  if (allow.has("GET")) allow.add("HEAD");
  allow.add("OPTIONS");
  // As Next matches: a static path before one with {id}, a catch-all last.
  const rank = path.includes("*}") ? 1000 : (path.match(/\{/g) ?? []).length;
  return { pattern: new RegExp(`^${source}$`), allow: [...allow].sort(), rank };
}

const routes = Object.entries(API_ROUTES)
  .map(([path, methods]) => toRoute(path, methods))
  .sort((a, b) => a.rank - b.rank);

/** The methods the route at this path answers; undefined when no API route serves the path. */
export function allowedMethods(pathname: string): string[] | undefined {
  return routes.find((route) => route.pattern.test(pathname))?.allow;
}
