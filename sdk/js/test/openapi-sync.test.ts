import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { OPERATIONS } from "../dist/index.js";
import { disagreements, type Schema } from "./openapi-check.ts";
import { getService } from "./service.ts";

// The client's OPERATIONS table against the running service's GET /api/v1/openapi.json.
describe("in sync with the OpenAPI document", () => {
  let doc: Schema;
  before(async () => {
    const service = await getService();
    const res = await fetch(`${service.baseUrl}/api/v1/openapi.json`);
    assert.equal(res.status, 200);
    doc = await res.json();
  });

  for (const [name, op] of Object.entries(OPERATIONS)) {
    test(`${name}: ${op.method} ${op.path}`, () => {
      assert.deepEqual(disagreements(doc, name, op), []);
    });
  }

  test("the check notices a wrong path, method, query, request field and response field", () => {
    const list = OPERATIONS.listDictionary;
    const add = OPERATIONS.addDictionaryEntry;
    assert.equal(disagreements(doc, "x", { ...list, path: "/api/v1/dictionaries" }).length, 1);
    assert.equal(disagreements(doc, "x", { ...list, method: "POST" }).length, 1);
    assert.match(disagreements(doc, "x", { ...list, query: ["limit", "page"] }).join(), /query page/);
    assert.match(disagreements(doc, "x", { ...list, response: ["entries[].misspeling"] }).join(), /entries\[\]\.misspeling/);
    assert.match(disagreements(doc, "x", { ...add, body: ["misspelling", "correct"] }).join(), /request field correct\b/);
    assert.match(disagreements(doc, "x", { ...add, body: ["misspelling"] }).join(), /required request field correct_spelling/);
    assert.match(disagreements(doc, "x", { ...OPERATIONS.deleteDictionaryEntry, query: [] }).join(), /required query misspelling/);
  });
});
