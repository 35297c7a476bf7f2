import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { OPERATIONS } from "../dist/index.js";
import { getService } from "./service.ts";

// The client's operations are generated from the contracts (npm run generate:clients), and their
// request and response types are compiled against the document; this checks the build against the
// running service's GET /api/v1/openapi.json: each operation is still there, under its id.
describe("in sync with the served OpenAPI document", () => {
  let paths: Record<string, Record<string, { operationId?: string }>>;
  before(async () => {
    const service = await getService();
    const res = await fetch(`${service.baseUrl}/api/v1/openapi.json`);
    assert.equal(res.status, 200);
    paths = (await res.json()).paths;
  });

  for (const [name, op] of Object.entries(OPERATIONS)) {
    test(`${name}: ${op.method} ${op.path}`, () => {
      assert.equal(op.id, name);
      assert.equal(paths[op.path]?.[op.method.toLowerCase()]?.operationId, op.id);
    });
  }
});
