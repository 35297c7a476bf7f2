import { defineOperation, pathsOf, type ApiArea } from "@/lib/openapi/operation.ts";
import { HealthReport } from "@/lib/openapi/schemas.ts";

const tag = "Service";

export const getHealth = defineOperation({
  method: "get",
  path: "/api/health",
  id: "getHealth",
  tag,
  summary: "Service health",
  description:
    "Checks that the database answers and that every migration is applied. Meant for load balancers and uptime checks.",
  scope: "public",
  responses: {
    200: { description: "Healthy: the database answers and is fully migrated.", schema: HealthReport },
    503: { description: "Degraded: the database is unreachable or migrations are pending.", schema: HealthReport },
  },
});

export const getOpenApi = defineOperation({
  method: "get",
  path: "/api/v1/openapi.json",
  id: "getOpenApi",
  tag,
  summary: "This API description",
  description: "The OpenAPI 3.1 document of the public API, for client generators and API tools.",
  scope: "public",
  responses: {
    200: {
      description: "The OpenAPI document.",
      schema: {
        type: "object",
        description: "An OpenAPI 3.1 document.",
        externalDocs: { url: "https://spec.openapis.org/oas/v3.1.1" },
      },
    },
  },
});

export const serviceArea: ApiArea = {
  tag: { name: tag, description: "About the service itself: its health and this API description." },
  schemas: [HealthReport],
  paths: pathsOf(getHealth, getOpenApi),
};
