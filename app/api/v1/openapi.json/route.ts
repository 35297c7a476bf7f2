import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/health/contracts.ts";
import { buildOpenApiDocument } from "@/lib/api/openapi-document.ts";

// Per request (not force-static): withRequest reads the caller's X-Request-Id and echoes it.
export const dynamic = "force-dynamic";

// GET /api/v1/openapi.json – the OpenAPI 3.1 document of the public API (no key needed)
export const GET = withOperation(api.getOpenApi, async () => json(buildOpenApiDocument()));
