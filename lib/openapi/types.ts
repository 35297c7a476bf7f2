// The parts of the OpenAPI 3.1 object model this project writes and reads (docs page, tests).
export type JsonSchema = { [keyword: string]: unknown };
export type Reference = { $ref: string };

export type HeaderObject = { description?: string; required?: boolean; schema: JsonSchema };

export type ParameterObject = {
  name: string;
  in: "query" | "path" | "header";
  required: boolean;
  description?: string;
  schema: JsonSchema;
  example?: unknown;
};

export type MediaTypeObject = { schema: JsonSchema | Reference };

export type RequestBodyObject = { required: boolean; description?: string; content: Record<string, MediaTypeObject>; "x-max-body-bytes"?: number };

export type ResponseObject = {
  description: string;
  headers?: Record<string, HeaderObject | Reference>;
  content?: Record<string, MediaTypeObject>;
  /** The error codes this response can carry (one status, several codes). */
  "x-error-codes"?: { code: string; when: string }[];
};

export type SecurityRequirement = Record<string, string[]>;

export type OperationObject = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: SecurityRequirement[];
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject>;
  /** The API-key scope the operation needs; absent on public operations. */
  "x-required-scope"?: string;
};

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type PathItemObject = Partial<Record<HttpMethod, OperationObject>>;
export type PathsObject = Record<string, PathItemObject>;

export type TagObject = { name: string; description: string };

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: TagObject[];
  security: SecurityRequirement[];
  paths: PathsObject;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, HeaderObject>;
    securitySchemes: Record<string, { type: "http"; scheme: "bearer"; bearerFormat: string; description: string }>;
  };
};
