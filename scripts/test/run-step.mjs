// Runs one step of scripts/test/steps.mjs in a lane: its header, its processes, and its result in the lane's
// tally, from the exit code of a check or the counts a suite's reporter wrote.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildApp, reachable, root, run, startService } from "./processes.mjs";
import { STEPS } from "./steps.mjs";

const COUNTS_REPORTER = pathToFileURL(path.join(root, "scripts/test/counts-reporter.mjs")).href;
const UNITTEST_COUNTS = path.join(root, "scripts/test/unittest_counts.py");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

/** What a lane counted: tests passed and failed (a check is one), and what failed. */
export class Tally {
  passed = 0;
  failed = 0;
  failures = [];
  fail(what) {
    this.failed += 1;
    this.failures.push(what);
  }
  check(title, code) {
    if (code === 0) this.passed += 1;
    else this.fail(title);
  }
  /** A suite's counts (null when it wrote none) and its exit code. */
  suite(title, counts, code) {
    const failed = counts?.failed ?? 0;
    this.passed += counts?.passed ?? 0;
    this.failed += failed;
    if (failed) this.failures.push(`${title} (${failed})`);
    // It failed outside any test (a crash, or a file that did not load).
    if (code !== 0 && failed === 0) this.fail(`${title} (exited with ${code})`);
  }
  add(other) {
    this.passed += other.passed;
    this.failed += other.failed;
    this.failures.push(...other.failures);
  }
}

/**
 * Runs a step. The lane `ctx` holds its output and tally, the environment of the service it runs under,
 * the arguments for the test runner (`node --test`, `playwright test`) and the step's name (for a failed build).
 */
export async function runStep(step, ctx) {
  const title = step.title ?? step.name;
  if (step.needs === "build" && !(await buildApp(ctx.out))) return ctx.tally.fail(`${ctx.stepName} (building the app)`);
  if (step.needs === "postgres" && !(await postgresAnswers())) {
    return ctx.out.log(`\n=== ${title}: skipped (no server at 127.0.0.1:5432; set TEST_DATABASE_URL)`);
  }
  if (step.check) return check(title, step.check, ctx);
  if (step.python) return pythonSuite(title, step.python, ctx);
  if (step.playwright) return playwrightSuite(title, step.playwright, ctx);
  if (step.files) return nodeSuite(title, await testFiles(step.files), ctx, { env: step.env });
  if (step.service) return withService(title, step, ctx);
  for (const part of step.parts) await runStep(typeof part === "string" ? STEPS.find((s) => s.name === part) : part, ctx);
}

const postgresAnswers = async () =>
  Boolean(process.env.TEST_DATABASE_URL) || (await reachable("postgresql://postgres@127.0.0.1:5432/postgres"));

/** A step's test files: the dir's *.test.ts, by name. */
async function testFiles(files) {
  if (Array.isArray(files)) return files;
  const entries = await readdir(path.join(root, files)).catch(() => []);
  return entries.filter((f) => f.endsWith(".test.ts")).sort().map((f) => path.join(files, f));
}

async function check(title, [command, ...args], ctx) {
  ctx.out.log(`\n=== ${title}`);
  ctx.tally.check(title, await run(bin(command), args, { out: ctx.out }));
}

/** Runs `work` with a new directory for a step's result file and data, then removes it. */
async function inTempDir(work) {
  const dir = await mkdtemp(path.join(tmpdir(), "vd-test-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const readCounts = (file) => readFile(file, "utf8").then(JSON.parse, () => null);

// A private DATA_DIR: no test may touch the checkout's ./data.
// No model on this machine writes and nothing is downloaded, unless a test says so (tests/support/env.ts).
const testEnv = (dir, ctx, env = {}) => ({ LOG_LEVEL: "silent", DATA_DIR: path.join(dir, "data"), WRITER_LOCAL: "off", WRITER_AUTO_DOWNLOAD: "false", ...ctx.env, ...env });

/** `node --test` over files. */
async function nodeSuite(title, files, ctx, { env = {} } = {}) {
  ctx.out.log(`\n=== ${title}`);
  if (files.length) {
    await inTempDir(async (dir) => {
      const counts = path.join(dir, "counts.json");
      const nodeOptions = [
        // Wasm compiled by the baseline compiler only: each test file is a process of its own, and the
        // in-memory PGlite of every API file had V8's optimizing compiler recompile all of Postgres in the
        // background, 30–40% of the file's CPU, for a process that ends seconds later (docs/benchmarks.md).
        // Servers the tests start keep the app's own flags.
        "--liftoff-only",
        "--import",
        "tsx",
        "--test",
        "--test-concurrency=2",
        "--test-reporter=spec",
        "--test-reporter-destination=stdout",
        `--test-reporter=${COUNTS_REPORTER}`,
        `--test-reporter-destination=${counts}`,
      ];
      const code = await run(process.execPath, [...nodeOptions, ...ctx.passThrough, ...files], { env: testEnv(dir, ctx, env), out: ctx.out });
      ctx.tally.suite(title, await readCounts(counts), code);
    });
  }
}

/**
 * The counts in a Playwright JSON report (null when there is none): a flaky test (passed on its retry)
 * passed; an unexpected outcome failed; skipped apart. An error outside the tests is the exit code's.
 */
export const playwrightCounts = (report) =>
  report?.stats ? { passed: report.stats.expected + report.stats.flaky, failed: report.stats.unexpected, skipped: report.stats.skipped } : null;

/** `playwright test`, counted from its JSON report (playwright.config.ts writes it to E2E_JSON_REPORT). */
async function playwrightSuite(title, args, ctx) {
  ctx.out.log(`\n=== ${title}`);
  await inTempDir(async (dir) => {
    const report = path.join(dir, "report.json");
    const code = await run(bin("playwright"), [...args, ...ctx.passThrough], { env: testEnv(dir, ctx, { E2E_JSON_REPORT: report }), out: ctx.out });
    ctx.tally.suite(title, playwrightCounts(await readCounts(report)), code);
  });
}

/** A unittest suite, discovered as `python -m unittest discover` does. */
async function pythonSuite(title, { start, top, path: importPath }, ctx) {
  ctx.out.log(`\n=== ${title}`);
  const python = process.env.PYTHON ?? "python3";
  await inTempDir(async (dir) => {
    const counts = path.join(dir, "counts.json");
    const env = { PYTHONPATH: path.join(root, importPath), PYTHONDONTWRITEBYTECODE: "1", ...ctx.env };
    const code = await run(python, [UNITTEST_COUNTS, counts, start, top], { env, out: ctx.out });
    ctx.tally.suite(title, await readCounts(counts), code);
  });
}

/** Starts the step's service, runs its parts with the environment that reaches it, then stops it. */
async function withService(title, step, ctx) {
  ctx.out.log(`\n=== ${title}`);
  const service = await startService(step.service, step.serviceName, ctx.out);
  try {
    if (service.error) return ctx.tally.fail(service.error);
    await runStep({ parts: step.parts }, { ...ctx, env: { ...ctx.env, ...service.env } });
  } finally {
    await service.stop();
  }
}
