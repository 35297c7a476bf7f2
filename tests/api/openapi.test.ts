import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { call } from "@/tests/support/http.ts";
import { exportedMethods, PUBLIC_ROUTE_ROOTS, root, routeFiles, urlPath } from "@/scripts/route-files.ts";
import { ERROR_STATUS } from "@/lib/http/errors.ts";
import { ListEntriesQuery, UpsertEntryInput } from "@/lib/dictionary/schemas.ts";
import { buildOpenApiDocument } from "@/lib/api/openapi-document.ts";
import { HTTP_METHODS, type JsonSchema, type OperationObject } from "@/lib/openapi/types.ts";
import { GET as getOpenApi } from "@/app/api/v1/openapi.json/route.ts";

const doc = buildOpenApiDocument();

function operations(): { key: string; path: string; op: OperationObject }[] {
  return Object.entries(doc.paths).flatMap(([p, item]) =>
    HTTP_METHODS.flatMap((method) => (item[method] ? [{ key: `${method.toUpperCase()} ${p}`, path: p, op: item[method] }] : [])),
  );
}

function collectRefs(value: unknown, refs: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => collectRefs(v, refs));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref") refs.push(v as string);
      else collectRefs(v, refs);
    }
  }
  return refs;
}

function resolvePointer(ref: string): unknown {
  assert.ok(ref.startsWith("#/"), `${ref} is not a reference within the document`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

describe("the OpenAPI document", () => {
  test("is OpenAPI 3.1 with info, servers and the bearer scheme", () => {
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.equal(doc.info.title, "Voicedraft API");
    assert.match(doc.info.version, /^\d+\.\d+\.\d+/);
    assert.match(doc.info.description, /Authorization: Bearer vd_/);
    assert.match(doc.info.description, /npm run admin -- create-key --email/);
    assert.deepEqual(doc.servers.map((s) => s.url), ["/"]);
    assert.deepEqual(doc.components.securitySchemes.bearer, {
      ...doc.components.securitySchemes.bearer,
      type: "http",
      scheme: "bearer",
      bearerFormat: "vd_ API key",
    });
    assert.deepEqual(doc.security, [{ bearer: [] }]);
  });

  test("every $ref resolves within the document", () => {
    const refs = collectRefs(doc);
    assert.ok(refs.length > 10, "the document uses references");
    for (const ref of new Set(refs)) assert.ok(resolvePointer(ref) !== undefined, `${ref} does not resolve`);
  });

  test("every operation has an id, responses, explicit security and X-Request-Id on every response", () => {
    const ids = new Set<string>();
    for (const { key, op } of operations()) {
      assert.ok(op.operationId && !ids.has(op.operationId), `${key}: missing or duplicate operationId`);
      ids.add(op.operationId);
      assert.ok(op.summary && op.description, `${key}: summary and description`);
      assert.ok(Object.keys(op.responses).length > 0, `${key}: responses`);
      assert.ok(Array.isArray(op.security), `${key}: security must be explicit ([] for public)`);
      for (const requirement of op.security) {
        for (const scheme of Object.keys(requirement)) assert.ok(doc.components.securitySchemes[scheme], `${key}: ${scheme}`);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        assert.deepEqual(response.headers?.["X-Request-Id"], { $ref: "#/components/headers/X-Request-Id" }, `${key} ${status}`);
      }
    }
    assert.deepEqual(
      [...ids].sort(),
      [
        ...["addDictionaryEntry", "createOpenAiTranscription", "deleteDictionaryEntry", "editTranscription", "getDictionaryImpact", "getDictionarySuggestions", "getHealth", "getOpenApi", "getRecording", "getTranscription", "listDictionary", "listTranscriptions", "transcribe"],
        // The content area (lib/posts/contracts.ts, with channels and presets).
        ...["approveContentVariant", "confirmManualDelivery", "createChannel", "createContentMaster", "createContentVariants", "createPreset"],
        ...["deleteChannel", "deletePreset", "editContentItem", "getChannel", "getContentFamily", "getContentItem", "getPreset", "listChannels"],
        ...["listContentMasters", "listPresets", "recordContentDelivery", "refreshContentFromNote", "regenerateContentVariant", "updateChannel", "updatePreset"],
        // A note's recording (issue 24) and the settings (issue 25).
        ...["getTranscriptionAudio", "getSettings", "updateSettings"],
        // Deleting a note, exporting everything, deleting the account (issue 24 item 5).
        ...["deleteTranscription", "exportUserData", "deleteAccount"],
        // Ticking a note's action items (issue 31).
        "tickActionItems",
        // Hearing an older note again with the accurate recognizer, and its Undo (issue 57 item 2).
        ...["hearTranscriptionAgain", "undoHearingAgain"],
        // Rewrite as… (issue 31 item 3).
        ...["listRewriteStyles", "createRewriteStyle", "updateRewriteStyle", "deleteRewriteStyle"],
        ...["createRewrite", "listRewrites", "getRewrite", "editRewrite", "deleteRewrite"],
        // Recognizing while the person speaks (issue 32).
        ...["appendLiveAudio", "getLiveRecording", "finishLiveRecording"],
        // Tags across notes (issue 33 item 5).
        ...["listTags", "renameTag", "deleteTag"],
        // Ask your notes (issue 46 item 2).
        "askNotes",
        // Invitations, pairing a phone, signed-in devices (issue 68).
        ...["createInvitation", "createPairingCode", "listSignedInDevices", "signOutDevice"],
        // Webhooks (issue 34).
        ...["createWebhook", "listWebhooks", "getWebhook", "updateWebhook", "deleteWebhook", "rotateWebhookSecret"],
        ...["listWebhookDeliveries", "redeliverWebhook", "testWebhook"],
      ].sort(),
    );
  });

  test("authenticated operations state their scope and document 401, 403 and 503", () => {
    for (const { key, op } of operations()) {
      const scope = op["x-required-scope"];
      if (op.security.length === 0) {
        assert.equal(scope, undefined, `${key} is public but names a scope`);
        continue;
      }
      assert.ok(scope, `${key}: x-required-scope`);
      assert.deepEqual(op.security, [{ bearer: [scope] }], key);
      assert.ok(op.description.includes(`\`${scope}\``), `${key}: the description names the scope`);
      assert.ok(op.responses["401"]?.headers?.["WWW-Authenticate"], `${key}: 401 with WWW-Authenticate`);
      // Deleting the account, inviting, pairing a phone and the signed-in devices also refuse every
      // API key (session_required): only the app's session may. Invitations are the owner's; pairing
      // needs a secure address (issue 68).
      const forbidden = op.responses["403"]?.["x-error-codes"]?.map((c) => c.code);
      const SESSION_ONLY: Record<string, string[]> = {
        "DELETE /api/v1/account": ["session_required"],
        "POST /api/v1/invitations": ["session_required", "owner_only"],
        "POST /api/v1/pairing-codes": ["session_required", "secure_address_required"],
        "GET /api/v1/sessions": ["session_required"],
        "DELETE /api/v1/sessions/{id}": ["session_required"],
      };
      assert.deepEqual(forbidden, ["insufficient_scope", ...(SESSION_ONLY[key] ?? [])], key);
      assert.ok(op.responses["503"]?.["x-error-codes"]?.some((c) => c.code === "database_unavailable"), key);
    }
  });

  test("public operations are exactly the health check and this document", () => {
    const publicOps = operations().filter(({ op }) => op.security.length === 0).map(({ key }) => key);
    assert.deepEqual(publicOps.sort(), ["GET /api/health", "GET /api/v1/openapi.json"]);
  });

  test("error responses use the Error schema, and each code's status is the one the code maps to", () => {
    const error = doc.components.schemas.Error as JsonSchema & { properties: { error: JsonSchema } };
    const code = (error.properties.error.properties as Record<string, JsonSchema>).code;
    assert.deepEqual(code.enum, Object.keys(ERROR_STATUS));
    assert.deepEqual([...(error.properties.error.required as string[])].sort(), ["code", "message", "request_id"]);
    for (const { key, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        const codes = response["x-error-codes"];
        if (Number(status) < 400 || !codes) continue;
        assert.deepEqual(response.content?.["application/json"]?.schema, { $ref: "#/components/schemas/Error" }, key);
        for (const { code } of codes) {
          assert.equal(ERROR_STATUS[code as keyof typeof ERROR_STATUS], Number(status), `${key} ${code}`);
        }
      }
    }
  });

  test("the dictionary operations document their codes", () => {
    const codesOf = (p: string, method: "get" | "post" | "delete", status: string) =>
      doc.paths[p][method]?.responses[status]?.["x-error-codes"]?.map((c) => c.code).sort();
    assert.deepEqual(codesOf("/api/v1/dictionary/add", "post", "400"), ["invalid_encoding", "invalid_json", "validation_failed"]);
    assert.deepEqual(codesOf("/api/v1/dictionary/add", "post", "409"), ["dictionary_limit_reached"]);
    assert.deepEqual(codesOf("/api/v1/dictionary/add", "post", "413"), ["payload_too_large"]);
    assert.deepEqual(codesOf("/api/v1/dictionary/add", "post", "415"), ["unsupported_media_type"]);
    assert.deepEqual(codesOf("/api/v1/dictionary/delete", "delete", "404"), ["not_found"]);
    const add = doc.paths["/api/v1/dictionary/add"].post;
    for (const status of ["200", "201"]) {
      assert.deepEqual(add?.responses[status]?.content?.["application/json"]?.schema, {
        $ref: "#/components/schemas/DictionaryUpsertResult",
      });
    }
  });

  test("DictionaryEntryInput requires both fields and refuses others", () => {
    const input = doc.components.schemas.DictionaryEntryInput;
    assert.deepEqual(input.required, ["misspelling", "correct_spelling"]);
    assert.equal(input.additionalProperties, false);
    const body = doc.paths["/api/v1/dictionary/add"].post?.requestBody;
    assert.deepEqual(body?.content["application/json"].schema, { $ref: "#/components/schemas/DictionaryEntryInput" });
    // The documented examples are themselves valid input.
    const properties = input.properties as Record<string, JsonSchema & { examples: unknown[] }>;
    const example = {
      misspelling: properties.misspelling.examples[0],
      correct_spelling: properties.correct_spelling.examples[0],
    };
    assert.ok(UpsertEntryInput.safeParse(example).success);
  });

  test("query parameters come from the zod query schemas", () => {
    const list = doc.paths["/api/v1/dictionary"].get?.parameters ?? [];
    assert.deepEqual(list.map((p) => p.name), Object.keys(ListEntriesQuery.shape));
    assert.ok(list.every((p) => p.in === "query" && !p.required));
    assert.deepEqual(list.find((p) => p.name === "limit")?.schema, { type: "integer", minimum: 1, maximum: 10_000 });
    const remove = doc.paths["/api/v1/dictionary/delete"].delete?.parameters ?? [];
    assert.deepEqual(remove.map((p) => [p.name, p.in, p.required]), [["misspelling", "query", true]]);
  });

  test("documents every public route file and method, and nothing else", async () => {
    const files = (await Promise.all(PUBLIC_ROUTE_ROOTS.map(routeFiles))).flat();
    assert.ok(files.length >= 5, `found route files: ${files.join(", ")}`);
    const routes: string[] = [];
    for (const file of files) {
      const methods = exportedMethods(await readFile(path.join(root, file), "utf8"));
      assert.ok(methods.length > 0, `${file} exports no HTTP method`);
      routes.push(...methods.map((m) => `${m} ${urlPath(file)}`));
    }
    assert.deepEqual(operations().map((o) => o.key).sort(), routes.sort());
  });

  test("the route scanner reads handler exports and dynamic segments", () => {
    const source = "export const GET = withRequest(h);\nexport async function POST() {}\nexport { remove as DELETE };";
    assert.deepEqual(exportedMethods(source).sort(), ["DELETE", "GET", "POST"]);
    assert.equal(urlPath(path.join("app", "api", "v1", "(content)", "items", "[id]", "route.ts")), "/api/v1/items/{id}");
  });

  test("leaves internal endpoints out", () => {
    for (const p of Object.keys(doc.paths)) assert.ok(!p.startsWith("/api/internal"), p);
  });

  test("is built once", () => {
    assert.equal(buildOpenApiDocument(), doc);
  });
});

describe("GET /api/v1/openapi.json", () => {
  test("serves the document as JSON without a key, with X-Request-Id", async () => {
    const res = await call(getOpenApi, { path: "/api/v1/openapi.json" });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.ok(res.headers.get("x-request-id"));
    assert.deepEqual(res.body, JSON.parse(JSON.stringify(doc)));
  });

  test("echoes a well-formed X-Request-Id", async () => {
    const res = await call(getOpenApi, { path: "/api/v1/openapi.json", headers: { "x-request-id": "client-req-1234" } });
    assert.equal(res.headers.get("x-request-id"), "client-req-1234");
  });
});
