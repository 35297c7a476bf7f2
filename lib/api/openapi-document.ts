import pkg from "@/package.json" with { type: "json" };
import { componentSchemas } from "@/lib/openapi/json-schema.ts";
import { SECURITY_SCHEME, type ApiArea } from "@/lib/openapi/operation.ts";
import { API_DESCRIPTION } from "@/lib/openapi/info.ts";
import { ErrorBody } from "@/lib/openapi/schemas.ts";
import { accountArea } from "@/lib/accounts/contracts.ts";
import { devicesArea } from "@/lib/auth/contracts.ts";
import { askArea } from "@/lib/ask/contracts.ts";
import { contentArea } from "@/lib/posts/contracts.ts";
import { dictionaryArea } from "@/lib/dictionary/contracts.ts";
import { serviceArea } from "@/lib/health/contracts.ts";
import { rewritesArea } from "@/lib/rewrites/contracts.ts";
import { settingsArea } from "@/lib/accounts/settings-contracts.ts";
import { tagsArea } from "@/lib/tags/contracts.ts";
import { transcriptionArea } from "@/lib/transcription/contracts.ts";
import { webhooksArea } from "@/lib/webhooks/contracts.ts";
import type { HttpMethod, OpenApiDocument, PathsObject } from "@/lib/openapi/types.ts";

// The public API, area by area: each domain keeps its contracts beside it (lib/<domain>/contracts.ts);
// a new area is listed here.
// Internal endpoints (/api/internal/…) are not public API and never belong in it.
const AREAS: ApiArea[] = [transcriptionArea, askArea, tagsArea, rewritesArea, dictionaryArea, contentArea, webhooksArea, settingsArea, devicesArea, accountArea, serviceArea];

function mergePaths(areas: ApiArea[]): PathsObject {
  const paths: PathsObject = {};
  for (const area of areas) {
    for (const [path, item] of Object.entries(area.paths)) {
      if (path.startsWith("/api/internal")) throw new Error(`${path} is internal and must not be in the OpenAPI document.`);
      const merged = (paths[path] ??= {});
      for (const [method, op] of Object.entries(item) as [HttpMethod, NonNullable<(typeof item)[HttpMethod]>][]) {
        if (merged[method]) throw new Error(`${method.toUpperCase()} ${path} is documented twice.`);
        merged[method] = op;
      }
    }
  }
  return Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function build(): OpenApiDocument {
  return {
    openapi: "3.1.1",
    info: { title: "Voicedraft API", version: pkg.version, description: API_DESCRIPTION },
    servers: [{ url: "/", description: "This server" }],
    tags: AREAS.map((area) => area.tag),
    security: [{ [SECURITY_SCHEME]: [] }],
    paths: mergePaths(AREAS),
    components: {
      schemas: componentSchemas([ErrorBody, ...AREAS.flatMap((area) => area.schemas)]),
      headers: {
        "X-Request-Id": {
          description:
            "Identifies the request in the server's logs. Echoes the X-Request-Id you sent when it is 8–64 characters " +
            "of A–Z, a–z, 0–9 and . _ : - ; otherwise a new UUID.",
          schema: { type: "string" },
        },
        "WWW-Authenticate": {
          description: 'Bearer realm="voicedraft"; on 403 also error="insufficient_scope" and the scope that is needed.',
          schema: { type: "string" },
        },
        "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer", minimum: 0 } },
        "Content-Range": { description: "The bytes sent and the whole size (`bytes 0-99/2048`), or `bytes */2048` when a Range cannot be served.", schema: { type: "string" } },
        "Content-Disposition": { description: "`attachment` with the file name to save the body as.", schema: { type: "string" } },
        "Accept-Ranges": { description: "`bytes`: Range requests are served.", schema: { type: "string" } },
        ETag: { description: "Identifies this version of the body; send it as If-None-Match (304) or If-Range.", schema: { type: "string" } },
        "RateLimit-Limit": {
          description: "The limit that applies (IETF RateLimit header fields draft): requests per minute, or audio seconds per hour.",
          schema: { type: "integer", minimum: 0 },
        },
        "RateLimit-Remaining": { description: "What is left of that limit in the current window.", schema: { type: "integer", minimum: 0 } },
        "RateLimit-Reset": { description: "Seconds until the current window ends.", schema: { type: "integer", minimum: 0 } },
      },
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "vd_ API key",
          description: "An API key (vd_ followed by 43 letters and digits) from `npm run admin -- create-key`.",
        },
      },
    },
  };
}

let cached: OpenApiDocument | undefined;

/** The OpenAPI 3.1 document of the public API, built once from the zod schemas and frozen. */
export function buildOpenApiDocument(): OpenApiDocument {
  cached ??= deepFreeze(build());
  return cached;
}
