// Runs one step of scripts/test/steps.mjs in a lane: its header, its processes, and its result in the lane's
// tally, from the exit code of a check or the counts a suite's reporter wrote.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildApp, Output, reachable, root, run, startService } from "./processes.mjs";
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
 * the arguments for `node --test`, the step's name (for a failed build), and, for the browser tests,
 * whether they take one lane and when the steps beside them have ended.
 */
export async function runStep(step, ctx) {
  const title = step.title ?? step.name;
  if (step.needs === "build" && !(await buildApp(ctx.out))) return ctx.tally.fail(`${ctx.stepName} (building the app)`);
  if (step.needs === "postgres" && !(await postgresAnswers())) {
    return ctx.out.log(`\n=== ${title}: skipped (no server at 127.0.0.1:5432; set TEST_DATABASE_URL)`);
  }
  if (step.check) return check(title, step.check, ctx);
  if (step.python) return pythonSuite(title, step.python, ctx);
  if (step.queue) return browserQueue(title, step, ctx);
  if (step.files) return nodeSuite(title, await testFiles(step.files), ctx, { env: step.env });
  if (step.service) return withService(title, step, ctx);
  for (const part of step.parts) await runStep(typeof part === "string" ? STEPS.find((s) => s.name === part) : part, ctx);
}

const postgresAnswers = async () =>
  Boolean(process.env.TEST_DATABASE_URL) || (await reachable("postgresql://postgres@127.0.0.1:5432/postgres"));

/** A step's test files: the dir's *.test.ts, the ones named in `first` first, in its order, then the rest by name. */
async function testFiles(files, first = []) {
  if (Array.isArray(files)) return files;
  const entries = await readdir(path.join(root, files)).catch(() => []);
  const rank = (f) => (first.includes(f) ? first.indexOf(f) : first.length);
  const names = entries.filter((f) => f.endsWith(".test.ts")).sort();
  return names.sort((a, b) => rank(a) - rank(b)).map((f) => path.join(files, f));
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

/** `node --test` over files; with `hold`, its output is printed in one piece when it ends. */
async function nodeSuite(title, files, ctx, { env = {}, nodeArgs = [], hold = false } = {}) {
  const out = hold ? new Output(true) : ctx.out;
  out.log(`\n=== ${title}`);
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
        ...nodeArgs,
        "--test-reporter=spec",
        "--test-reporter-destination=stdout",
        `--test-reporter=${COUNTS_REPORTER}`,
        `--test-reporter-destination=${counts}`,
      ];
      // A private DATA_DIR: no test may touch the checkout's ./data.
      // No model on this machine writes and nothing is downloaded, unless a test says so (tests/support/env.ts).
      const testEnv = { LOG_LEVEL: "silent", DATA_DIR: path.join(dir, "data"), WRITER_LOCAL: "off", WRITER_AUTO_DOWNLOAD: "false", ...ctx.env, ...env };
      const code = await run(process.execPath, [...nodeOptions, ...ctx.passThrough, ...files], { env: testEnv, out });
      ctx.tally.suite(title, await readCounts(counts), code);
    });
  }
  if (hold) ctx.out.write(out.text);
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

/** The browser test files, one process each, from one queue (the `first` ones first) in two lanes; then the `last` ones, alone. */
async function browserQueue(title, { files: dir, queue: spec }, ctx) {
  const files = await testFiles(dir, spec.first);
  const last = files.filter((f) => spec.last.files.includes(path.basename(f)));
  const queue = files.filter((f) => !last.includes(f));
  ctx.out.log(`\n=== ${title}: ${queue.length} files, ${ctx.oneLane ? "one lane" : "a second lane once the side lane has ended"}`);
  const app = await startService(spec.service, spec.serviceName, ctx.out);
  try {
    if (app.error) return ctx.tally.fail(app.error);
    const appCtx = { ...ctx, env: { ...ctx.env, ...app.env } };
    const options = { nodeArgs: spec.nodeArgs, hold: true };
    const lane = async () => {
      for (let file; (file = queue.shift()); ) await nodeSuite(`${spec.fileTitle}: ${path.basename(file)}`, [file], appCtx, options);
    };
    const secondLane = spec.secondLaneAfter === "beside" ? ctx.besideDone : Promise.resolve();
    await Promise.all([lane(), ctx.oneLane ? undefined : secondLane.then(lane)]);
    await nodeSuite(spec.last.title, last, appCtx, { nodeArgs: spec.nodeArgs });
  } finally {
    await app.stop();
  }
}
