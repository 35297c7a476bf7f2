import { z } from "zod";
import type { Scope } from "@/lib/api-keys/scopes.ts";
import { ERROR_STATUS, type ErrorCode } from "@/lib/http/errors.ts";
import type { FeatureFlag } from "@/lib/http/feature-flag.ts";
import { queryParameters, schemaRef } from "@/lib/openapi/json-schema.ts";
import { ErrorBody } from "@/lib/openapi/schemas.ts";
import type {
  HttpMethod,
  JsonSchema,
  OperationObject,
  ParameterObject,
  PathsObject,
  Reference,
  ResponseObject,
  TagObject,
} from "@/lib/openapi/types.ts";

export const SECURITY_SCHEME = "bearer";

const header = (name: string): Reference => ({ $ref: `#/components/headers/${name}` });

/** Error code → when it happens. The status comes from ERROR_STATUS, so it cannot disagree with the code. */
export type ErrorCases = Partial<Record<ErrorCode, string>>;

/**
 * One endpoint's contract, declared once: withOperation (lib/api/with-operation.ts) enforces it
 * at run time and operation() turns it into the endpoint's OpenAPI entry.
 */
export type OperationSpec = {
  method: HttpMethod;
  /** The URL path, with `{name}` for each path parameter (as in OpenAPI). */
  path: string;
  id: string;
  tag: string;
  summary: string;
  description: string;
  /** The API-key scope required, or "public" for an endpoint without a key. */
  scope: Scope | "public";
  query?: z.ZodObject;
  /** Path and header parameters, written out (path parameters must match the `{name}`s of the path). */
  parameters?: ParameterObject[];
  /** A JSON request body; the schema needs `.meta({ id })`. */
  body?: z.ZodType;
  /** The largest JSON body this operation reads, in bytes (default MAX_JSON_BODY_BYTES, 64 KiB). */
  maxBodyBytes?: number;
  /** A multipart/form-data request body (uploads), described as JSON Schema. */
  multipart?: JsonSchema;
  /** A raw binary body (audio bytes), of these media types, at most maxBytes; the handler reads it. */
  binary?: { mediaTypes: string[]; maxBytes: number; description: string };
  /** Success responses by status; `schema` is a zod schema with `.meta({ id })` or plain JSON Schema. */
  responses: Record<
    number,
    {
      description: string;
      /** The JSON body; omitted when the answer is only of the `alternatives`' types (audio) or has none (304). */
      schema?: z.ZodType | JsonSchema;
      alternatives?: Record<string, JsonSchema>;
      /** Headers of the answer besides X-Request-Id (from components.headers). */
      headers?: string[];
    }
  >;
  /** The feature the endpoint belongs to, checked after the key and before the input. */
  feature?: FeatureFlag;
  /** Errors beyond those implied by the key, the feature, the query and the body; an entry also rewords an implied one. */
  errors?: ErrorCases;
};

/** Declares an operation; the spec keeps its literal types so that handlers see their input's types. */
export function defineOperation<const S extends OperationSpec>(spec: S): S {
  return spec;
}

// What withApiKey, parseQuery and parseJson can answer, so each operation need not repeat it.
const authErrors = (scope: Scope): ErrorCases => ({
  unauthorized: "The Authorization header is missing or malformed, or the key is unknown, revoked or expired.",
  insufficient_scope: `The key lacks the scope ${scope}.`,
  database_unavailable: "The database is unreachable; retry after the Retry-After seconds.",
  service_unavailable: "The service is momentarily busy; retry after the Retry-After seconds.",
  rate_limited:
    "Too many requests with this key this minute, or (from your address) with unknown keys; uploads also when the " +
    "account's hourly audio seconds are spent. Retry after the Retry-After seconds.",
});
const QUERY_ERRORS: ErrorCases = {
  validation_failed: "A query parameter is invalid, unknown or given twice; details names each one.",
  invalid_encoding: "The query string is not valid percent-encoded UTF-8 (a broken %-escape, or bytes that are not UTF-8).",
};
const bodyErrors = (maxBytes?: number): ErrorCases => ({
  unsupported_media_type: "The Content-Type is not application/json (charset UTF-8, or none).",
  payload_too_large: maxBytes
    ? `The body is larger than ${maxBytes.toLocaleString("en")} bytes.`
    : "The body is larger than the server's limit (64 KiB unless configured otherwise: MAX_JSON_BODY_BYTES).",
  invalid_json: "The body is not valid JSON.",
  validation_failed: "A field is missing, unknown or invalid; details names each one.",
});
const MULTIPART_ERRORS: ErrorCases = {
  unsupported_media_type: "The Content-Type is not multipart/form-data.",
  invalid_multipart: "The multipart body is malformed.",
  validation_failed: "A field is unknown, repeated or invalid; details names each one.",
};
const ERROR_HEADERS: Partial<Record<ErrorCode, string | string[]>> = {
  rate_limited: ["Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"],
  engine_busy: "Retry-After",
  too_many_live_recordings: "Retry-After",
  range_not_satisfiable: "Content-Range",
  unauthorized: "WWW-Authenticate",
  insufficient_scope: "WWW-Authenticate",
  database_unavailable: "Retry-After",
  service_unavailable: "Retry-After",
};

function content(schema: z.ZodType | JsonSchema) {
  return { "application/json": { schema: schema instanceof z.ZodType ? schemaRef(schema) : schema } };
}

function errorResponses(cases: ErrorCases): Record<string, ResponseObject> {
  const byStatus = new Map<number, { code: string; when: string }[]>();
  for (const [code, when] of Object.entries(cases) as [ErrorCode, string][]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), { code, when }]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const names = new Set(codes.flatMap(({ code }) => ERROR_HEADERS[code as ErrorCode] ?? []));
    responses[status] = {
      description: codes.map(({ code, when }) => `${code}: ${when}`).join("\n\n"),
      headers: { "X-Request-Id": header("X-Request-Id"), ...Object.fromEntries([...names].map((h) => [h, header(h)])) },
      content: content(ErrorBody),
      "x-error-codes": codes,
    };
  }
  return responses;
}

/** The last paragraph of every operation's description (the docs page shows it as a badge instead). */
export function accessNote(scope: string): string {
  return scope === "public" ? "Public: no API key needed." : `Required scope: \`${scope}\`.`;
}

/** One OpenAPI operation from a compact spec, with the errors its edge implies filled in. */
export function operation(spec: OperationSpec): OperationObject {
  const { scope } = spec;
  const isPublic = scope === "public";
  const errors: ErrorCases = {
    ...(scope !== "public" && authErrors(scope)),
    ...(spec.feature && { feature_disabled: spec.feature.documented }),
    // Every operation refuses unknown query parameters, also one that declares none.
    ...QUERY_ERRORS,
    ...(spec.body && bodyErrors(spec.maxBodyBytes)),
    ...(spec.multipart && MULTIPART_ERRORS),
    ...(spec.binary && { payload_too_large: `The body is larger than ${spec.binary.maxBytes} bytes.` }),
    ...spec.errors,
  };
  const responses: Record<string, ResponseObject> = {};
  for (const [status, { description, schema, alternatives = {}, headers = [] }] of Object.entries(spec.responses)) {
    const others = Object.fromEntries(Object.entries(alternatives).map(([type, s]) => [type, { schema: s }]));
    const body = { ...(schema && content(schema)), ...others };
    responses[status] = {
      description,
      headers: { "X-Request-Id": header("X-Request-Id"), ...Object.fromEntries(headers.map((h) => [h, header(h)])) },
      ...(Object.keys(body).length && { content: body }),
    };
  }
  for (const [status, response] of Object.entries(errorResponses(errors))) {
    if (responses[status]) throw new Error(`${spec.id}: status ${status} is both a success and an error.`);
    responses[status] = response;
  }
  return {
    operationId: spec.id,
    summary: spec.summary,
    description: `${spec.description}\n\n${accessNote(scope)}`,
    tags: [spec.tag],
    security: isPublic ? [] : [{ [SECURITY_SCHEME]: [scope] }],
    ...(!isPublic && { "x-required-scope": scope }),
    ...((spec.query || spec.parameters) && {
      parameters: [...(spec.parameters ?? []), ...(spec.query ? queryParameters(spec.query) : [])],
    }),
    ...(spec.body && {
      requestBody: { required: true, content: content(spec.body), ...(spec.maxBodyBytes && { "x-max-body-bytes": spec.maxBodyBytes }) },
    }),
    ...(spec.multipart && { requestBody: { required: true, content: { "multipart/form-data": { schema: spec.multipart } } } }),
    ...(spec.binary && {
      requestBody: {
        required: true,
        description: spec.binary.description,
        content: Object.fromEntries(spec.binary.mediaTypes.map((type) => [type, { schema: { type: "string", format: "binary" } }])),
        "x-max-body-bytes": spec.binary.maxBytes,
      },
    }),
    responses,
  };
}

/** The paths object of some operations, in the order given. */
/** The `{id}` path parameter of an operation on one thing (a note, an item, a channel, …). */
export const idParameter = (description: string): ParameterObject[] => [
  { name: "id", in: "path", required: true, description, schema: { type: "string" } },
];

export function pathsOf(...specs: OperationSpec[]): PathsObject {
  const paths: PathsObject = {};
  for (const spec of specs) {
    const item = (paths[spec.path] ??= {});
    if (item[spec.method]) throw new Error(`${spec.method.toUpperCase()} ${spec.path} is declared twice.`);
    item[spec.method] = operation(spec);
  }
  return paths;
}

/** One area of the API (dictionary, content, …): its tag, its paths and the schemas they reference. */
export type ApiArea = { tag: TagObject; paths: PathsObject; schemas: z.ZodType[] };
