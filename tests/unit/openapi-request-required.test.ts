import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { componentSchemas } from "@/lib/openapi/json-schema.ts";

// What a client sends: a field it may leave out (optional, or with a default) is not required,
// at any depth of a request body; a response (not strict) lists what it always has.

test("a request body's defaulted and optional fields are not required, also nested", () => {
  const Target = z.strictObject({ channel_id: z.string(), preset_id: z.string().default("builtin-standard") });
  const Input = z.strictObject({ name: z.string(), limit: z.number().default(20), note: z.string().optional(), targets: z.array(Target) }).meta({ id: "TestInput" });
  const Output = z.object({ name: z.string(), limit: z.number().default(20) }).meta({ id: "TestOutput" });
  const schemas = componentSchemas([Input, Output]);
  assert.deepEqual(schemas.TestInput.required, ["name", "targets"]);
  const items = (schemas.TestInput.properties as Record<string, { items: { required: string[] } }>).targets.items;
  assert.deepEqual(items.required, ["channel_id"]);
  assert.deepEqual(schemas.TestOutput.required, ["name", "limit"], "a response always has its defaulted field");
});
