import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { allowedMethods } from "@/lib/api/api-methods.ts";
import { ROUTE_TABLE_FILE, routeTableSource } from "@/scripts/generate-route-table.ts";

test("the API route table is the one the route files make (npm run generate:routes)", async () => {
  assert.equal(await readFile(ROUTE_TABLE_FILE, "utf8"), await routeTableSource(), "run `npm run generate:routes` and commit lib/api/route-table.ts");
});

test("allowed methods: static paths before {id}, HEAD with GET, OPTIONS always, catch-alls last", () => {
  assert.deepEqual(allowedMethods("/api/v1/dictionary/add"), ["OPTIONS", "POST"]);
  assert.deepEqual(allowedMethods("/api/v1/channels/ch_1"), ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH"]);
  assert.deepEqual(allowedMethods("/api/auth/callback/credentials"), ["GET", "HEAD", "OPTIONS", "POST"]);
  assert.deepEqual(allowedMethods("/transcribe"), ["OPTIONS", "POST"]);
  assert.equal(allowedMethods("/record"), undefined);
});
