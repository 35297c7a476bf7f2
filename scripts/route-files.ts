// The route files and what they export, read from the file system (app/ is the routing table):
// for the API route table (scripts/generate-route-table.ts) and the tests of contracts and OpenAPI.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));

// The public route files: everything under app/api/v1, the health check, and the upload endpoints.
export const PUBLIC_ROUTE_ROOTS = ["app/api/v1", "app/api/health", "app/transcribe", "app/v1"];

export async function routeFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) => {
      if (e.isDirectory()) return routeFiles(path.join(dir, e.name));
      return e.name === "route.ts" ? [path.join(dir, e.name)] : [];
    }),
  );
  return nested.flat();
}

/** app/api/v1/items/[id]/route.ts → /api/v1/items/{id}; route groups "(x)" are not part of the URL. */
export function urlPath(file: string): string {
  const segments = path.dirname(file).split(path.sep).slice(1);
  return (
    "/" +
    segments
      .filter((s) => !/^\(.*\)$/.test(s))
      .map((s) => s.replace(/^\[(?:\.\.\.)?(\w+)\]$/, "{$1}"))
      .join("/")
  );
}

const METHOD = "(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)";
const EXPORTED_HANDLER = new RegExp(`export\\s+(?:const|let|var|async\\s+function|function)\\s+${METHOD}\\b`, "g");
const RENAMED_EXPORT = new RegExp(`\\bas\\s+${METHOD}\\b`, "g");

export function exportedMethods(source: string): string[] {
  const methods = new Set<string>();
  for (const m of source.matchAll(EXPORTED_HANDLER)) methods.add(m[1]);
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const name of m[1].matchAll(RENAMED_EXPORT)) methods.add(name[1]);
  }
  return [...methods];
}
