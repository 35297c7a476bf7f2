import { z } from "zod";
import type { JsonSchema, ParameterObject, Reference } from "@/lib/openapi/types.ts";

// zod schemas → OpenAPI 3.1 Schema Objects (JSON Schema draft 2020-12). Schemas are converted in
// output mode: it keeps the limits a trim-then-check pipe enforces (input mode would drop them).
// Output mode lists .default() fields as required, so what a client sends takes `required` from
// the input side: query parameters, and request bodies (strict objects, at any depth).

const SCHEMA_URI = (id: string) => `#/components/schemas/${id}`;

/**
 * OpenAPI 3.1 deprecates `example` for `examples`; zod's date-time regex is noise next to `format`.
 * Output mode closes every object; only strict ones (request bodies) should be: a response that
 * gains a field must not break clients that validate against this document.
 */
function tidy({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodTypes; jsonSchema: JsonSchema }): void {
  const def = zodSchema._zod.def;
  if (def.type === "object" && def.catchall === undefined) delete jsonSchema.additionalProperties;
  if (def.type === "object" && def.catchall?._zod.def.type === "never") {
    // A request body: a field the client may leave out (optional, or with a default) is not required.
    const required = Object.entries(def.shape).filter(([, field]) => field._zod.optin === undefined).map(([key]) => key);
    if (required.length) jsonSchema.required = required;
    else delete jsonSchema.required;
  }
  if ("example" in jsonSchema) {
    jsonSchema.examples = [jsonSchema.example];
    delete jsonSchema.example;
  }
  if (jsonSchema.format === "date-time") delete jsonSchema.pattern;
}

const OPTIONS = { target: "draft-2020-12", io: "output", override: tidy } as const;

/** The component id of a schema, from its `.meta({ id })`. */
export function schemaId(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (typeof id !== "string") throw new Error("A schema used in OpenAPI needs .meta({ id: \"Name\" }).");
  return id;
}

export function schemaRef(schema: z.ZodType): Reference {
  return { $ref: SCHEMA_URI(schemaId(schema)) };
}

/** components.schemas for the given schemas; a nested schema that is one of them becomes a $ref. */
export function componentSchemas(schemas: z.ZodType[]): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const ids = new Set<string>();
  for (const schema of schemas) {
    const id = schemaId(schema);
    if (ids.has(id)) throw new Error(`Two OpenAPI schemas share the id ${id}.`);
    ids.add(id);
    registry.add(schema, { id });
  }
  const { schemas: converted } = z.toJSONSchema(registry, { ...OPTIONS, uri: SCHEMA_URI });
  if ("__shared" in converted) throw new Error("A nested schema has an id but is not an OpenAPI component.");
  const result: Record<string, JsonSchema> = {};
  for (const [id, { $schema: _dialect, $id: _uri, ...schema }] of Object.entries(converted)) result[id] = schema;
  return result;
}

/** Query parameters from a zod object schema: one per key, description lifted onto the parameter. */
export function queryParameters(schema: z.ZodObject): ParameterObject[] {
  const output = z.toJSONSchema(schema, OPTIONS);
  const required = new Set(z.toJSONSchema(schema, { ...OPTIONS, io: "input" }).required ?? []);
  const properties = (output.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, { description, examples, ...rest }]) => ({
    name,
    in: "query" as const,
    required: required.has(name),
    ...(typeof description === "string" && { description }),
    schema: rest,
    ...(Array.isArray(examples) && { example: examples[0] }),
  }));
}
