import type { JsonSchema, OpenApiDocument, OperationObject } from "@/lib/openapi/types.ts";

// Reading the OpenAPI document for people: field tables and curl examples.

const SCHEMA_PREFIX = "#/components/schemas/";

export type TypePart = string | { ref: string };
export type Field = { name: string; type: TypePart[]; required: boolean; description?: string; notes: string[] };

export function refName(schema: unknown): string | undefined {
  const ref = (schema as JsonSchema | undefined)?.$ref;
  return typeof ref === "string" && ref.startsWith(SCHEMA_PREFIX) ? ref.slice(SCHEMA_PREFIX.length) : undefined;
}

function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const name = refName(schema);
  return name ? (doc.components.schemas[name] ?? {}) : schema;
}

export function typeOf(schema: JsonSchema): TypePart[] {
  const name = refName(schema);
  if (name) return [{ ref: name }];
  if (Array.isArray(schema.anyOf)) {
    return (schema.anyOf as JsonSchema[]).flatMap((option, i) => [...(i ? [" or "] : []), ...typeOf(option)]);
  }
  if (schema.type === "array") return ["array of ", ...typeOf((schema.items ?? {}) as JsonSchema)];
  if (Array.isArray(schema.type)) return [schema.type.join(" or ")];
  return [typeof schema.type === "string" ? schema.type : "any"];
}

function range(min: unknown, max: unknown, unit = ""): string | undefined {
  if (typeof min === "number" && typeof max === "number") return `${min}–${max}${unit}`;
  if (typeof max === "number") return `at most ${max}${unit}`;
  if (typeof min === "number") return `at least ${min}${unit}`;
  return undefined;
}

export function notes(schema: JsonSchema): string[] {
  const result = [
    Array.isArray(schema.enum) ? `one of: ${schema.enum.join(", ")}` : undefined,
    typeof schema.format === "string" ? `format: ${schema.format}` : undefined,
    range(schema.minLength, schema.maxLength, " characters"),
    range(schema.minimum, schema.maximum),
    typeof schema.pattern === "string" ? `pattern: ${schema.pattern}` : undefined,
    Array.isArray(schema.examples) ? `example: ${JSON.stringify(schema.examples[0])}` : undefined,
  ];
  return result.filter((note) => note !== undefined);
}

/** The fields of an object schema, inline nested objects flattened to dotted names (refs stay links). */
export function fields(doc: OpenApiDocument, schema: JsonSchema, prefix = ""): Field[] {
  const resolved = resolve(doc, schema);
  const required = new Set((resolved.required ?? []) as string[]);
  const result: Field[] = [];
  for (const [name, property] of Object.entries((resolved.properties ?? {}) as Record<string, JsonSchema>)) {
    const path = prefix + name;
    const description = typeof property.description === "string" ? property.description : undefined;
    result.push({ name: path, type: typeOf(property), required: required.has(name), description, notes: notes(property) });
    if (refName(property)) continue;
    if (property.properties) result.push(...fields(doc, property, `${path}.`));
    const items = property.items as JsonSchema | undefined;
    if (items?.properties && !refName(items)) result.push(...fields(doc, items, `${path}[].`));
  }
  return result;
}

/** A plausible value for a schema: its example, else one built from its type. */
export function exampleOf(doc: OpenApiDocument, schema: JsonSchema): unknown {
  const resolved = resolve(doc, schema);
  if (Array.isArray(resolved.examples)) return resolved.examples[0];
  if (Array.isArray(resolved.enum)) return resolved.enum[0];
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
  if (type === "object") {
    const required = new Set((resolved.required ?? []) as string[]);
    const properties = Object.entries((resolved.properties ?? {}) as Record<string, JsonSchema>);
    return Object.fromEntries(
      properties
        .filter(([name, property]) => required.has(name) || Array.isArray(property.examples))
        .map(([name, property]) => [name, exampleOf(doc, property)]),
    );
  }
  if (type === "array") return [exampleOf(doc, (resolved.items ?? {}) as JsonSchema)];
  if (type === "integer" || type === "number") return 1;
  if (type === "boolean") return true;
  return "…";
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** A copy-and-paste curl command; the base URL and key come from VOICEDRAFT_URL and VOICEDRAFT_API_KEY. */
export function curlExample(doc: OpenApiDocument, path: string, method: string, op: OperationObject): string {
  const parameters = op.parameters ?? [];
  const example = (name: string) => String(parameters.find((p) => p.name === name)?.example ?? name.toUpperCase());
  const query = parameters
    .filter((p) => p.in === "query" && p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(example(p.name))}`);
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(example(name)));
  const verb = method === "get" ? "" : ` -X ${method.toUpperCase()}`;
  const lines = [`curl -sS${verb} "$VOICEDRAFT_URL${url}${query.length ? `?${query.join("&")}` : ""}"`];
  if (op.security.length) lines.push(`-H "Authorization: Bearer $VOICEDRAFT_API_KEY"`);
  const body = op.requestBody?.content["application/json"]?.schema;
  if (body) lines.push(`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(exampleOf(doc, body)))}`);
  const form = op.requestBody?.content["multipart/form-data"]?.schema;
  if (form && "properties" in form) {
    for (const name of (form.required as string[] | undefined) ?? []) lines.push(`-F "${name}=@note.m4a"`);
  }
  return lines.join(" \\\n  ");
}
