import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { after, test } from "node:test";
import { ROOT } from "@/tests/support/processes.ts";

// npm test counts each suite from the JSON its reporter writes (scripts/test/counts-reporter.mjs for
// `node --test`, Playwright's JSON reporter for the browser tests, scripts/test/unittest_counts.py for the
// Python SDK's unittest suite): here, suites with one test of every outcome, and the counts they write.

const dir = mkdtempSync(path.join(tmpdir(), "vd-counts-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const python = process.env.PYTHON ?? "python3";
const hasPython = spawnSync(python, ["--version"]).status === 0;

test("node --test: passed, failed (a timeout and a file that did not load too), skipped and todo; suites are not tests", () => {
  writeFileSync(
    path.join(dir, "outcomes.test.mjs"),
    `import { describe, test } from "node:test";
describe("a suite", () => {
  test("passes", () => {});
  test("fails", () => { throw new Error("no"); });
  test("is skipped", { skip: true }, () => {});
});
test("todo, failing", { todo: true }, () => { throw new Error("later"); });
test("times out", { timeout: 20 }, () => new Promise((resolve) => setTimeout(resolve, 500)));
test("passes too", () => {});
`,
  );
  writeFileSync(path.join(dir, "broken.test.mjs"), `throw new Error("does not load");\n`);
  const counts = path.join(dir, "node-counts.json");
  const reporter = pathToFileURL(path.join(ROOT, "scripts/test/counts-reporter.mjs")).href;
  const run = spawnSync(
    process.execPath,
    ["--test", `--test-reporter=${reporter}`, `--test-reporter-destination=${counts}`, "outcomes.test.mjs", "broken.test.mjs"],
    // Not a subtest of this file's run: a child of the test runner is told so through NODE_TEST_CONTEXT.
    { cwd: dir, encoding: "utf8", env: { ...process.env, NODE_TEST_CONTEXT: undefined } },
  );
  assert.equal(run.status, 1, run.stderr);
  assert.deepEqual(JSON.parse(readFileSync(counts, "utf8")), { passed: 2, failed: 3, skipped: 1, todo: 1 });
});

test("playwright test: passed, failed, flaky (passed on its retry) and skipped, from the JSON report", async () => {
  type Counts = { passed: number; failed: number; skipped: number } | null;
  const runStep = pathToFileURL(path.join(ROOT, "scripts/test/run-step.mjs")).href;
  const { playwrightCounts } = (await import(runStep)) as { playwrightCounts(report: unknown): Counts };
  const pw = path.join(dir, "pw");
  mkdirSync(pw);
  // No browser: the runner's own outcomes. The test file imports this checkout's @playwright/test by path (it is outside it).
  const playwright = pathToFileURL(path.join(ROOT, "node_modules/@playwright/test/index.mjs")).href;
  writeFileSync(
    path.join(pw, "outcomes.spec.mjs"),
    `import { test } from ${JSON.stringify(playwright)};
test("passes", () => {});
test("fails", () => { throw new Error("no"); });
test("passes on its retry", ({}, testInfo) => { if (testInfo.retry === 0) throw new Error("the first try"); });
test.skip("is skipped", () => {});
`,
  );
  writeFileSync(path.join(pw, "playwright.config.mjs"), `export default { testDir: ".", retries: 1, reporter: [["json", { outputFile: "report.json" }]] };\n`);
  const cli = path.join(ROOT, "node_modules/@playwright/test/cli.js");
  const run = spawnSync(process.execPath, [cli, "test", "-c", "playwright.config.mjs"], { cwd: pw, encoding: "utf8", env: { ...process.env, CI: "" } });
  assert.equal(run.status, 1, run.stderr);
  assert.deepEqual(playwrightCounts(JSON.parse(readFileSync(path.join(pw, "report.json"), "utf8"))), { passed: 2, failed: 1, skipped: 1 });
});

test("unittest: failures, errors and unexpected successes fail; skips apart; the exit code says whether all passed", { skip: !hasPython && `no ${python}` }, () => {
  const tests = path.join(dir, "py", "tests");
  mkdirSync(tests, { recursive: true });
  writeFileSync(path.join(tests, "__init__.py"), "");
  writeFileSync(
    path.join(tests, "test_outcomes.py"),
    `import unittest

class Outcomes(unittest.TestCase):
    def test_passes(self): pass
    def test_passes_too(self): pass
    def test_fails(self): self.assertEqual(1, 2)
    def test_errors(self): raise RuntimeError("boom")
    @unittest.skip("not here")
    def test_skipped(self): pass
    @unittest.expectedFailure
    def test_expected_failure(self): self.assertEqual(1, 2)
    @unittest.expectedFailure
    def test_unexpected_success(self): pass
`,
  );
  const counts = path.join(dir, "py-counts.json");
  const script = path.join(ROOT, "scripts/test/unittest_counts.py");
  const unittest = () => spawnSync(python, [script, counts, tests, path.dirname(tests)], { encoding: "utf8", env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
  const failing = unittest();
  assert.equal(failing.status, 1, failing.stderr);
  assert.match(failing.stderr, /test_passes \(.*\) \.\.\. ok/, "unittest's own verbose output");
  assert.deepEqual(JSON.parse(readFileSync(counts, "utf8")), { passed: 2, failed: 3, skipped: 1 });

  writeFileSync(path.join(tests, "test_outcomes.py"), "import unittest\n\nclass Fine(unittest.TestCase):\n    def test_passes(self): pass\n");
  const passing = unittest();
  assert.equal(passing.status, 0, passing.stderr);
  assert.deepEqual(JSON.parse(readFileSync(counts, "utf8")), { passed: 1, failed: 0, skipped: 0 });
});

