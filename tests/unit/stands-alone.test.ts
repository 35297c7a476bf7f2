import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ROOT } from "@/tests/support/processes.ts";

// The repository stands alone: a clone anywhere runs its tests and reads its docs, so no tracked
// file may point at a path above the repository (the sibling `shared/` folder this project grew
// beside, or an absolute /work path).

const OUTSIDE = [/\.\.\/shared\//, /\/work\/shared/, /"\.\.",\s*"shared"/];

function trackedTextFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
  return out.split("\0").filter((f) => f && !/\.(png|jpe?g|webp|ico|wav|mp3|bin|woff2?|wasm)$/.test(f) && f !== "package-lock.json");
}

test("no tracked file points outside the repository", { skip: !existsSync(path.join(ROOT, ".git")) && "not a git checkout" }, () => {
  const found: string[] = [];
  for (const file of trackedTextFiles()) {
    const full = path.join(ROOT, file);
    if (!existsSync(full) || file === "tests/unit/stands-alone.test.ts") continue;
    readFileSync(full, "utf8").split("\n").forEach((line, i) => {
      if (OUTSIDE.some((re) => re.test(line))) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  assert.deepEqual(found, [], "these lines point outside the repository");
});

test("the test speech, the test model and the service interface are in the repository", () => {
  for (const file of ["tests/fixtures/jfk.wav", "tests/fixtures/jfk.mp3", "tests/fixtures/for-tests-ggml-tiny.en.bin", "tests/fixtures/README.md", "docs/service-interface.md"]) {
    assert.ok(existsSync(path.join(ROOT, file)), `${file} is missing`);
  }
});
