import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { exportedMethods, PUBLIC_ROUTE_ROOTS, root, routeFiles, urlPath } from "@/scripts/route-files.ts";
import { json } from "@/lib/http/respond.ts";
import { withOperation, type OperationHandler } from "@/lib/api/with-operation.ts";
import { buildOpenApiDocument } from "@/lib/api/openapi-document.ts";
import { GET as listChannels } from "@/app/api/v1/channels/route.ts";
import { GET as listTranscriptions } from "@/app/api/v1/transcriptions/route.ts";
import type { FeatureFlag } from "@/lib/http/feature-flag.ts";
import { defineOperation, operation } from "@/lib/openapi/operation.ts";
import type { HttpMethod } from "@/lib/openapi/types.ts";

setUpTestDatabase();

const Body = z.strictObject({ name: z.string().min(1) }).meta({ id: "ContractTestBody" });
const Query = z.strictObject({ n: z.coerce.number().int().optional() });
let enabled = true;
const FLAG: FeatureFlag = { isEnabled: () => enabled, message: "Off here.", documented: "Off here (TEST_FLAG=false)." };
const base = { id: "contractTest", tag: "Test", summary: "s", description: "d" };
const answers = { 201: { description: "Created.", schema: Body } };

describe("every public route serves its declared contract", () => {
  test("each exported method is a withOperation handler of the contract with its method and path, documented from it", async () => {
    const doc = buildOpenApiDocument();
    const files = (await Promise.all(PUBLIC_ROUTE_ROOTS.map(routeFiles))).flat();
    let checked = 0;
    for (const file of files) {
      const routeModule = (await import(path.join(root, file))) as Record<string, Partial<OperationHandler>>;
      for (const method of exportedMethods(await readFile(path.join(root, file), "utf8"))) {
        const contract = routeModule[method]?.operation;
        assert.ok(contract, `${method} in ${file} is not made with withOperation`);
        assert.equal(contract.method, method.toLowerCase(), `${file}: ${method} serves the ${contract.method} contract`);
        assert.equal(contract.path, urlPath(file), `${file}: the contract's path`);
        assert.deepEqual(doc.paths[contract.path][contract.method as HttpMethod], operation(contract), `${method} ${contract.path}`);
        checked++;
      }
    }
    assert.equal(checked, Object.values(doc.paths).flatMap((item) => Object.keys(item)).length);
  });
});

describe("withOperation", () => {
  test("takes the scope from the contract", async () => {
    const contract = defineOperation({ ...base, method: "get", path: "/t", scope: "dictionary:write", responses: answers });
    const handler = withOperation(contract, async () => json({ name: "x" }, { status: 201 }));
    assert.equal((await call(handler, { path: "/t" })).status, 401);
    const { key } = await createTestUser({ scopes: ["dictionary:read"] });
    const refused = await call(handler, { path: "/t", key });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, "insufficient_scope");
    const { key: writer } = await createTestUser({ scopes: ["dictionary:write"] });
    assert.equal((await call(handler, { path: "/t", key: writer })).status, 201);
  });

  test("parses the body and the query with the contract's schemas and hands over the results", async () => {
    const contract = defineOperation({ ...base, method: "post", path: "/t", scope: "public", body: Body, query: Query, responses: answers });
    const handler = withOperation(contract, async ({ body, query }) => json({ name: `${body.name}${query.n ?? ""}` }, { status: 201 }));
    const ok = await call(handler, { method: "POST", path: "/t?n=2", json: { name: "a" } });
    assert.deepEqual([ok.status, ok.body], [201, { name: "a2" }]);
    const badBody = await call(handler, { method: "POST", path: "/t", json: { name: "" } });
    assert.deepEqual([badBody.status, badBody.body.error.code, badBody.body.error.details[0].path], [400, "validation_failed", "name"]);
    const badQuery = await call(handler, { method: "POST", path: "/t?x=1", json: { name: "a" } });
    assert.deepEqual([badQuery.status, badQuery.body.error.code], [400, "validation_failed"]);
    const notJson = await call(handler, { method: "POST", path: "/t", body: "name=a", headers: { "content-type": "text/plain" } });
    assert.equal(notJson.body.error.code, "unsupported_media_type");
  });

  test("an operation that declares no query refuses any query string (unknown, malformed, bare), in the error shape", async () => {
    const contract = defineOperation({ ...base, method: "get", path: "/t", scope: "public", responses: answers });
    const handler = withOperation(contract, async () => json({ name: "x" }, { status: 201 }));
    const { key } = await createTestUser();
    assert.equal((await call(handler, { path: "/t" })).status, 201);
    assert.equal((await call(listChannels, { path: "/api/v1/channels", key })).status, 200);
    for (const query of ["?x=1", "?limit=-1", "?x", "?x=%00", "?a=1&a=2"]) {
      for (const res of [await call(handler, { path: `/t${query}` }), await call(listChannels, { path: `/api/v1/channels${query}`, key })]) {
        assert.equal(res.status, 400, `${query}: ${res.text.slice(0, 200)}`);
        assert.equal(res.body.error.code, "validation_failed", query);
        assert.equal(res.body.error.request_id, res.headers.get("x-request-id"), query);
        assert.ok(Array.isArray(res.body.error.details) && res.body.error.details.length > 0, query);
      }
    }
    // A broken %-escape is not text at all: invalid_encoding (issue 44), in the same shape.
    for (const query of ["?a=%ZZ", "?%ZZ"]) {
      for (const res of [await call(handler, { path: `/t${query}` }), await call(listChannels, { path: `/api/v1/channels${query}`, key })]) {
        assert.equal(res.status, 400, `${query}: ${res.text.slice(0, 200)}`);
        assert.equal(res.body.error.code, "invalid_encoding", query);
        assert.equal(res.body.error.request_id, res.headers.get("x-request-id"), query);
      }
    }
  });

  test("a declared numeric query parameter refuses negative, fractional, huge and non-numbers", async () => {
    const { key } = await createTestUser();
    assert.equal((await call(listTranscriptions, { path: "/api/v1/transcriptions?limit=100", key })).status, 200);
    for (const limit of ["-1", "0", "1.5", "101", "99999999999999999999", "1e309", "abc", ""]) {
      const res = await call(listTranscriptions, { path: `/api/v1/transcriptions?limit=${limit}`, key });
      assert.equal(res.status, 400, `limit=${limit}: ${res.text.slice(0, 200)}`);
      assert.deepEqual([res.body.error.code, res.body.error.details[0].path], ["validation_failed", "limit"], `limit=${limit}`);
    }
  });

  test("answers 404 feature_disabled before reading the input when the contract's feature is off", async () => {
    const contract = defineOperation({ ...base, method: "post", path: "/t", scope: "public", feature: FLAG, body: Body, responses: answers });
    const handler = withOperation(contract, async () => json({ name: "x" }, { status: 201 }));
    enabled = false;
    try {
      const off = await call(handler, { method: "POST", path: "/t", body: "{", headers: { "content-type": "application/json" } });
      assert.deepEqual([off.status, off.body.error.code, off.body.error.message], [404, "feature_disabled", "Off here."]);
    } finally {
      enabled = true;
    }
    assert.equal((await call(handler, { method: "POST", path: "/t", json: { name: "a" } })).status, 201);
    assert.ok(operation(contract).responses["404"]["x-error-codes"]?.some((c) => c.code === "feature_disabled"));
  });

  test("refuses (500, outside production) a success status the contract does not declare", async () => {
    const contract = defineOperation({ ...base, method: "get", path: "/t", scope: "public", responses: answers });
    const undeclared = withOperation(contract, async () => json({ name: "x" }, { status: 200 }));
    const res = await call(undeclared, { path: "/t" });
    assert.deepEqual([res.status, res.body.error.code], [500, "internal_error"]);
  });
});
