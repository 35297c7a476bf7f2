import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import * as sdk from "../dist/index.js";

// The package as shipped: dist/ is ESM with declarations, loads without Node-only imports (so a
// browser bundle works), has no runtime dependencies, and reports its version.
const root = path.resolve(import.meta.dirname, "..");
const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));

test("the exports point at built ESM and declarations; VERSION is the package version", () => {
  assert.equal(pkg.type, "module");
  for (const file of [pkg.exports["."].import, pkg.exports["."].types, pkg.main, pkg.types]) {
    assert.ok(existsSync(path.join(root, file)), `${file} exists`);
  }
  assert.equal(sdk.VERSION, pkg.version);
  assert.equal(pkg.dependencies, undefined, "no runtime dependencies");
});

test("dist has no static imports of Node built-ins (it must load in a browser)", async () => {
  const files = (await readdir(path.join(root, "dist"))).filter((f) => f.endsWith(".js"));
  assert.ok(files.length > 5);
  for (const file of files) {
    const code = await readFile(path.join(root, "dist", file), "utf8");
    assert.doesNotMatch(code, /^\s*import[^;]*from\s+["'](node:|fs|path|http|crypto)/m, file);
    assert.doesNotMatch(code, /\brequire\(/, file);
  }
});

test("the error classes form one hierarchy", () => {
  const error = new sdk.IdempotencyConflictError({ status: 409, code: "idempotency_conflict", message: "m", requestId: "r" });
  assert.ok(error instanceof sdk.ConflictError && error instanceof sdk.ApiError && error instanceof sdk.VoicedraftError);
  assert.equal(error.name, "IdempotencyConflictError");
  assert.ok(new sdk.TimeoutError("t") instanceof sdk.ConnectionError);
});
