import { describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { resetEnvCache } from "@/lib/env.ts";
import { ERROR_STATUS } from "@/lib/http/errors.ts";
import { buildOpenApiDocument } from "@/lib/api/openapi-document.ts";
import { HTTP_METHODS, type JsonSchema, type OperationObject } from "@/lib/openapi/types.ts";
import type { RouteHandler } from "@/lib/api/with-request.ts";

// Walks every operation of the OpenAPI document with hostile input, calling the real route
// handlers: malformed JSON, wrong types, NUL, lone surrogates, huge strings, bad ids, bad
// percent-encoding, bad keys. Never a 5xx; every 4xx in the one error shape. (Methods and
// percent-encoding that only Next itself sees are walked over HTTP in tests/system/security.test.ts.)
setUpTestDatabase();
// The fuzz sends thousands of requests in a minute: with the rate limits on (tests/api/rate-limits.test.ts
// covers them), the later operations got 429 before their input was looked at, so were not fuzzed at all.
process.env.RATE_LIMIT_API_PER_MINUTE = "0";
process.env.RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE = "0";
resetEnvCache();

const root = fileURLToPath(new URL("../..", import.meta.url));
const doc = buildOpenApiDocument();

// hostileText and refused: the case must not be accepted (any 2xx is a failure).
type Case = { label: string; path: string; params: Record<string, string>; init: RequestInit; hostileText?: boolean; refused?: boolean };

/** /api/v1/items/{id} → app/api/v1/items/[id]/route.ts */
async function handlerOf(urlPath: string, method: string): Promise<RouteHandler> {
  const dir = urlPath.split("/").map((s) => s.replace(/^\{(\w+)\}$/, "[$1]"));
  const mod = await import(pathToFileURL(path.join(root, "app", ...dir, "route.ts")).href);
  return mod[method];
}

function resolve(schema: JsonSchema | undefined): JsonSchema {
  const ref = schema?.$ref as string | undefined;
  return ref ? resolve(doc.components.schemas[ref.split("/").at(-1)!]) : (schema ?? {});
}

/** A plausible value of a schema: the fuzz mutates one field of it at a time. */
function sample(raw: JsonSchema | undefined): unknown {
  const schema = resolve(raw);
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return sample(variants.find((v) => v.type !== "null") ?? variants[0]);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ("const" in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      return schema.format === "date-time" ? new Date().toISOString() : "fuzz";
    case "integer":
    case "number":
      return (schema.minimum as number | undefined) ?? 1;
    case "boolean":
      return true;
    case "array":
      return [sample(schema.items as JsonSchema)];
    default: {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, sample(v)]));
    }
  }
}

// Text that must never be stored: NUL, lone surrogates (JSON escapes make them possible).
const HOSTILE_TEXT = ["\0", "a\u0000b", "\ud800", "x\udc00y", "\udfff\ud800"];
const WRONG_VALUES: unknown[] = [123, -1, 1.5, 1e308, true, null, [], {}, "", " ", "x".repeat(20_000), "😀\u202e", "' OR '1'='1", ["\0"], { "\0": 1 }];
const BAD_IDS = ["\0", "a\0b", "\ud800", "x".repeat(65), "..", "a b", "😀", "' OR '1'='1", "%FF%FE", "-1"];
// Raw query values, written percent-encoded: NUL, an encoded surrogate, bytes that are not UTF-8, broken escapes.
const MALFORMED_QUERY_VALUES = ["%00", "a%00b", "%ED%A0%80", "%FF%FE", "%E0%A4%A", "%", "%zz"];
const BAD_QUERY_VALUES = [...MALFORMED_QUERY_VALUES, "", "-1", "abc", "1e309", "99999999999999999999", "x".repeat(5000), "AA", "YQA", "%F0%9F%98%80"];
const MALFORMED_BODIES: BodyInit[] = ["{", "[1,", "nul", '{"a":}', "", "null", "[]", "123", '"text"', "[".repeat(5000) + "]".repeat(5000), Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]), '{"a":"\\ud800"}'];

function jsonCases(base: Record<string, unknown>): { label: string; init: RequestInit; hostileText?: boolean }[] {
  const asJson = (body: unknown) => ({ method: "", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const cases: { label: string; init: RequestInit; hostileText?: boolean }[] = [
    ...MALFORMED_BODIES.map((body, i) => ({ label: `malformed body #${i}`, init: { headers: { "content-type": "application/json" }, body } })),
    { label: "text/plain", init: { headers: { "content-type": "text/plain" }, body: JSON.stringify(base) } },
    { label: "no content type", init: { body: JSON.stringify(base) } },
    { label: "beyond the body limit", init: asJson({ ...base, pad: "x".repeat(70 * 1024) }) },
    { label: "unknown field", init: asJson({ ...base, unexpected: 1 }) },
    { label: "NUL in a key", init: asJson({ ...base, "a\0": 1 }), hostileText: true },
  ];
  for (const field of Object.keys(base)) {
    for (const [i, value] of WRONG_VALUES.entries()) cases.push({ label: `${field} = wrong #${i}`, init: asJson({ ...base, [field]: value }) });
    for (const [i, text] of HOSTILE_TEXT.entries()) {
      cases.push({ label: `${field} = hostile text #${i}`, init: asJson({ ...base, [field]: text }), hostileText: true });
    }
  }
  return cases;
}

function multipartCases(op: OperationObject): { label: string; init: RequestInit; hostileText?: boolean }[] {
  const schema = resolve(op.requestBody!.content["multipart/form-data"].schema as JsonSchema);
  const fileField = Object.entries(schema.properties as Record<string, JsonSchema>).find(([, s]) => s.contentMediaType === "application/octet-stream")![0];
  const textFields = Object.keys(schema.properties as object).filter((f) => f !== fileField);
  const junk = new Blob([new Uint8Array(2048).fill(0x41)]);
  const form = (fields: Record<string, string>, withFile = true) => {
    const body = new FormData();
    if (withFile) body.set(fileField, junk, "junk.bin");
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    return { body };
  };
  const cases: { label: string; init: RequestInit; hostileText?: boolean }[] = [
    { label: "no file", init: form({}, false) },
    { label: "JSON instead of a form", init: { headers: { "content-type": "application/json" }, body: "{}" } },
    { label: "multipart without a boundary", init: { headers: { "content-type": "multipart/form-data" }, body: "x" } },
    { label: "broken multipart", init: { headers: { "content-type": "multipart/form-data; boundary=zz" }, body: "--zz\r\nContent-Disposition: form-data; name=\"a\0\"\r\n\r\n\0\r\n--zz" } },
    { label: "not audio", init: form({}) },
    { label: "unknown field", init: form({ unexpected: "1" }) },
  ];
  for (const field of textFields) {
    const values = ["\0", "a\0b", "x".repeat(3000), "", "😀", "[", '{"a":1}', '[{"misspelling":"\\ud800","correct_spelling":"x"}]', '[{"misspelling":"a\\u0000","correct_spelling":"x"}]', "-1", "abc", "99999999999999999999"];
    for (const [i, value] of values.entries()) {
      cases.push({ label: `${field} = #${i}`, init: form({ [field]: value }), hostileText: value.includes("\0") || value.includes("\\u0000") });
    }
  }
  return cases;
}

// Every operation takes only the query parameters it declares: one that declares none refuses any.
// A declared one refuses broken percent-encoding, NUL, and (if numeric) numbers outside its range.
function queryCases(op: OperationObject): { label: string; query: string; refused: boolean }[] {
  const declared = (op.parameters ?? []).filter((p) => p.in === "query");
  const names = declared.map((p) => p.name);
  const cases = [
    { label: "unknown parameter", query: "?unexpected=1", refused: true },
    { label: "unknown parameter, malformed", query: "?a=%ZZ", refused: true },
    { label: "unknown limit", query: names.includes("limit") ? "?limit=-1" : "?limit=-1&x=1", refused: true },
    { label: "bare unknown name", query: "?x", refused: true },
    { label: "malformed name", query: "?%E0%A4%A=1", refused: true },
  ];
  for (const { name, schema } of declared) {
    const { type, minimum: min, maximum: max } = schema as { type?: string; minimum?: number; maximum?: number };
    const outOfRange =
      type === "integer" || type === "number"
        ? ["abc", "1e309", "-99999999999999999999", ...(type === "integer" ? ["1.5", "", "0x10", "1e3", "+5", "%205"] : []),
           ...(min !== undefined ? [String(min - 1), "-1"].filter((v) => Number(v) < min) : []),
           ...(max !== undefined ? [String(max + 1), "99999999999999999999"] : [])]
        : [];
    cases.push({ label: `${name} twice`, query: `?${name}=1&${name}=2`, refused: true });
    for (const value of BAD_QUERY_VALUES) {
      const refused = MALFORMED_QUERY_VALUES.includes(value) || outOfRange.includes(value);
      cases.push({ label: `${name}=${value.slice(0, 20)}`, query: `?${name}=${value}`, refused });
    }
    for (const value of outOfRange.filter((v) => !BAD_QUERY_VALUES.includes(v))) cases.push({ label: `${name}=${value}`, query: `?${name}=${value}`, refused: true });
  }
  return cases;
}

function operationCases(urlPath: string, method: string, op: OperationObject): Case[] {
  const names = [...urlPath.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const goodParams = Object.fromEntries(names.map((n) => [n, "0190f0f0-0000-7000-8000-000000000000"]));
  const segment = (id: string) => {
    try {
      return encodeURIComponent(id).replace(/%25/g, "%");
    } catch {
      return "%ED%A0%80"; // a lone surrogate has no UTF-8 form; the handler gets it in params
    }
  };
  const at = (params: Record<string, string>, query = "") => urlPath.replace(/\{(\w+)\}/g, (_, n: string) => segment(params[n])) + query;
  const jsonSchema = op.requestBody?.content["application/json"]?.schema as JsonSchema | undefined;
  const multipart = Boolean(op.requestBody?.content["multipart/form-data"]);
  const base = jsonSchema ? (sample(jsonSchema) as Record<string, unknown>) : undefined;
  const baseInit: RequestInit = base ? { headers: { "content-type": "application/json" }, body: JSON.stringify(base) } : {};

  const cases: Case[] = [];
  const add = (label: string, init: RequestInit, params = goodParams, query = "", hostileText = false, refused = false) =>
    cases.push({ label, path: at(params, query), params, init: { ...init, method }, hostileText, refused });

  add("plausible input", baseInit);
  for (const name of names) {
    for (const id of BAD_IDS) add(`${name} = ${JSON.stringify(id).slice(0, 20)}`, baseInit, { ...goodParams, [name]: id }, "", /\0|[\ud800-\udfff]/.test(id));
  }
  for (const { label, query, refused } of queryCases(op)) add(label, baseInit, goodParams, query, false, refused);
  if (base) for (const c of jsonCases(base)) add(c.label, c.init, goodParams, "", c.hostileText);
  if (multipart) for (const c of multipartCases(op)) add(c.label, c.init, goodParams, "", c.hostileText);
  return cases;
}

const AUTH_HEADERS = [undefined, "Bearer", "Bearer vd_" + "a".repeat(43), "Basic dXNlcjpwYXNz", "Bearer " + "x".repeat(5000), "Bearer vd_%00"];

describe("fuzzing every operation of the OpenAPI document", () => {
  test("never a 5xx; every 4xx in the error shape; NUL and lone surrogates never accepted", { timeout: 240_000 }, async (t) => {
    const { key } = await createTestUser();
    const counts = new Map<number, number>();
    const failures: string[] = [];
    let total = 0;

    const send = async (handler: RouteHandler, c: Case, authorization: string | undefined) => {
      const headers = new Headers(c.init.headers);
      if (authorization) headers.set("authorization", authorization);
      const req = new Request(`http://localhost${c.path}`, { ...c.init, headers });
      const res = await handler(req, { params: Promise.resolve(c.params) });
      const text = await res.text();
      total += 1;
      counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
      const where = `${c.init.method} ${c.path.slice(0, 80)} (${c.label}${authorization ? "" : ", no key"})`;
      if (res.status >= 500) return failures.push(`${where}: ${res.status} ${text.slice(0, 200)}`);
      if ((c.hostileText || c.refused) && res.status < 400) failures.push(`${where}: accepted with ${res.status}`);
      if (res.status === 429) failures.push(`${where}: rate-limited, so not fuzzed`);
      if (res.status < 400) return;
      let body: { error?: { code?: string; message?: string; request_id?: string; details?: unknown } } | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        return failures.push(`${where}: ${res.status} is not JSON: ${text.slice(0, 100)}`);
      }
      const error = body?.error;
      const code = error?.code as keyof typeof ERROR_STATUS | undefined;
      if (!code || ERROR_STATUS[code] !== res.status || !error?.message || error.request_id !== res.headers.get("x-request-id")) {
        failures.push(`${where}: ${res.status} not in the error shape: ${text.slice(0, 200)}`);
      }
      if (error?.details !== undefined && !Array.isArray(error.details)) failures.push(`${where}: details is not a list`);
      // A query refused is refused for itself (400), not by something that happened to come first.
      if (c.refused && code !== "validation_failed" && code !== "invalid_encoding" && code !== "feature_disabled") failures.push(`${where}: ${res.status} ${code}, not 400 for its query`);
    };

    for (const [urlPath, item] of Object.entries(doc.paths)) {
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (!op) continue;
        const handler = await handlerOf(urlPath, method.toUpperCase());
        assert.ok(handler, `${method} ${urlPath} has a handler`);
        const cases = operationCases(urlPath, method.toUpperCase(), op);
        for (const c of cases) await send(handler, c, `Bearer ${key}`);
        // Without a (valid) key: every one refused the same way, before the input is looked at.
        for (const authorization of AUTH_HEADERS) await send(handler, cases[0], authorization);
      }
    }

    const byStatus = [...counts.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    t.diagnostic(`${total} requests by status: ${byStatus.join(", ")}`);
    assert.deepEqual(failures, []);
    assert.ok(total > 1000, "the fuzz sent enough requests to mean something");
  });
});
