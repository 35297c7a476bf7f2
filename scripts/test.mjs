// npm test: lint, typecheck, and every test suite, on the embedded PGlite and on a real
// PostgreSQL (TEST_DATABASE_URL, or the local server when it is reachable). Ends with the line
// "N passed, N failed" (tests, plus lint and typecheck as one check each).
//
// Options: --only=<step>[,<step>] runs some steps (lint, typecheck, unit, db, api-pglite,
// api-postgres, system, sdk, e2e; and smoke, run only when asked: lint, unit and one real start);
// extra arguments after -- go to `node --test` (e.g. --test-name-pattern).
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import net from "node:net";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",");
const passThrough = args.includes("--") ? args.slice(args.indexOf("--") + 1) : [];
const bin = (name) => path.join(root, "node_modules", ".bin", name);

let passed = 0;
let failed = 0;
const failures = [];

/** Runs a command; with `held`, its output is kept and printed in one piece when it ends. */
function run(command, commandArgs, env = {}, held = null) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: held === null ? "inherit" : ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    let output = held ?? "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    child.on("exit", (code, signal) => {
      if (held !== null) process.stdout.write(output);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function testFiles(dir) {
  const entries = await readdir(path.join(root, "tests", dir)).catch(() => []);
  return entries.filter((f) => f.endsWith(".test.ts")).sort().map((f) => path.join("tests", dir, f));
}

async function check(name, command, commandArgs) {
  console.log(`\n=== ${name}`);
  const code = await run(command, commandArgs);
  if (code === 0) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
}

async function suite(name, files, env = {}, nodeArgs = [], { hold = false } = {}) {
  if (!hold) console.log(`\n=== ${name}`);
  if (!files.length) return;
  const dir = await mkdtemp(path.join(tmpdir(), "vd-test-"));
  const tap = path.join(dir, "report.tap");
  const code = await run(
    process.execPath,
    [
      // Wasm compiled by the baseline compiler only: each test file is a process of its own, and
      // the in-memory PGlite of every API file had V8's optimizing compiler recompile all of
      // Postgres in the background, 30–40% of the file's CPU, for a process that ends seconds
      // later (docs/benchmarks.md). Servers the tests start keep the app's own flags.
      "--liftoff-only",
      "--import",
      "tsx",
      "--test",
      "--test-concurrency=2",
      ...nodeArgs,
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=tap",
      `--test-reporter-destination=${tap}`,
      ...passThrough,
      ...files,
    ],
    // A private DATA_DIR: no test may touch the checkout's ./data.
    { LOG_LEVEL: "silent", DATA_DIR: path.join(dir, "data"), ...env },
    hold ? `\n=== ${name}\n` : null,
  );
  const report = await readFile(tap, "utf8").catch(() => "");
  await rm(dir, { recursive: true, force: true });
  const count = (label) => Number(report.match(new RegExp(`^# ${label} (\\d+)$`, "m"))?.[1] ?? 0);
  const suitePassed = count("pass");
  const suiteFailed = count("fail") + count("cancelled");
  passed += suitePassed;
  failed += suiteFailed;
  if (suiteFailed) failures.push(`${name} (${suiteFailed})`);
  if (code !== 0 && suiteFailed === 0) {
    // The runner failed outside any test (a crash, or a file that did not load).
    failed += 1;
    failures.push(`${name} (runner exited with ${code})`);
  }
}

function reachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || "127.0.0.1", port: Number(port) || 5432 });
    socket.setTimeout(2000);
    socket.on("connect", () => (socket.destroy(), resolve(true)));
    socket.on("timeout", () => (socket.destroy(), resolve(false)));
    socket.on("error", () => resolve(false));
  });
}

/**
 * Starts a program that runs a service for a step (tests/support/sdk-service.ts: the SDK suites';
 * tests/e2e/shared-app.ts: the browser tests') and prints one JSON line with the environment that
 * reaches it; resolves to that env, or an error. It stops when its stdin ends.
 */
function startService(program, what) {
  const child = spawn(process.execPath, ["--import", "tsx", program], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const stop = () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.on("exit", resolve), child.stdin.end())));
  return new Promise((resolve) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve({ env: JSON.parse(out.slice(0, out.indexOf("\n"))), stop });
    });
    child.on("exit", (code) => resolve({ error: `${what} did not start (exit ${code})`, stop }));
  });
}

/** The Python SDK's unittest suite; counts its results from unittest's summary. */
async function pythonSuite(name, env) {
  console.log(`\n=== ${name}`);
  const python = process.env.PYTHON ?? "python3";
  const args = ["-m", "unittest", "discover", "-v", "-s", "sdk/python/tests", "-t", "sdk/python"];
  const summary = await new Promise((resolve) => {
    const child = spawn(python, args, {
      cwd: root,
      stdio: ["ignore", "inherit", "pipe"],
      env: { ...process.env, PYTHONPATH: path.join(root, "sdk/python/src"), PYTHONDONTWRITEBYTECODE: "1", ...env },
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
      process.stderr.write(d);
    });
    child.on("error", (err) => resolve({ code: 1, stderr: String(err) }));
    child.on("exit", (code) => resolve({ code: code ?? 1, stderr }));
  });
  const ran = Number(summary.stderr.match(/^Ran (\d+) tests?/m)?.[1] ?? 0);
  const outcome = (label) => Number(summary.stderr.match(new RegExp(`\\b${label}=(\\d+)`))?.[1] ?? 0);
  const suiteFailed = outcome("failures") + outcome("errors") + outcome("unexpected successes");
  const suitePassed = ran - outcome("failures") - outcome("errors") - outcome("skipped") - outcome("expected failures");
  passed += Math.max(0, suitePassed);
  failed += suiteFailed;
  if (suiteFailed) failures.push(`${name} (${suiteFailed})`);
  if (summary.code !== 0 && suiteFailed === 0) {
    failed += 1;
    failures.push(`${name} (exited with ${summary.code})`);
  }
}

// Both client libraries against ONE real server (npm start, embedded database, PocketSphinx).
async function sdkSuites() {
  await check("JS SDK build (ESM and type declarations)", bin("tsc"), ["-p", "sdk/js/tsconfig.json"]);
  await check("JS SDK tests typecheck", bin("tsc"), ["-p", "sdk/js/test/tsconfig.json"]);
  await check("Python SDK typecheck (pyright: strict, Python 3.9)", bin("pyright"), ["-p", "sdk/python"]);
  console.log("\n=== SDK service (npm start for the SDK suites)");
  const service = await startService("tests/support/sdk-service.ts", "the SDK service");
  try {
    if (service.error) {
      failed += 1;
      failures.push(service.error);
      return;
    }
    const jsFiles = (await readdir(path.join(root, "sdk/js/test"))).filter((f) => f.endsWith(".test.ts")).sort();
    await suite("JS SDK tests", jsFiles.map((f) => path.join("sdk/js/test", f)), service.env);
    await pythonSuite("Python SDK tests", service.env);
  } finally {
    await service.stop();
  }
}

// The steps that start servers share one production build, made before the first of them (servers
// started side by side would otherwise each find it missing; scripts/build-app.ts also serializes).
let build;
async function built(step) {
  build ??= run(process.execPath, ["--import", "tsx", path.join(root, "scripts", "build-app.ts")]);
  if ((await build) === 0) return true;
  failed += 1;
  failures.push(`${step} (building the app)`);
  return false;
}

const steps = {
  lint: () => check("lint", bin("eslint"), ["--max-warnings=0", "."]),
  typecheck: () => check("typecheck", bin("tsc"), ["--noEmit"]),
  unit: async () => suite("unit tests", await testFiles("unit")),
  db: async () => suite("database tests (PGlite and PostgreSQL)", await testFiles("db")),
  "api-pglite": async () => suite("API tests on PGlite", await testFiles("api"), { TEST_DB: "pglite" }),
  "api-postgres": async () => {
    const url = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
    if (!process.env.TEST_DATABASE_URL && !(await reachable(url))) {
      console.log("\n=== API tests on PostgreSQL: skipped (no server at 127.0.0.1:5432; set TEST_DATABASE_URL)");
      return;
    }
    await suite("API tests on PostgreSQL", await testFiles("api"), { TEST_DB: "postgres" });
  },
  system: async () => (await built("system")) && suite("system tests (CLI and the running server)", await testFiles("system")),
  // The PWA in Debian's Chromium against the real app. Each file starts its own server, and one
  // file keeps about half of the two cores busy (the fake microphone plays in real time, pages
  // wait for their server): files are taken from one queue by two lanes, the second of which opens
  // when the side lane (system and SDK tests) has ended; each file's output is printed when it ends.
  // The files that record live run last, alone: PocketSphinx hears their speech while the fake
  // microphone plays it, and on a slow machine, sharing the cores with other tests' recognitions,
  // their captions came after the tests' waits.
  // The files that want only the app's defaults share one running app (tests/e2e/shared-app.ts):
  // a server start is about 8 s and 12 s of CPU here, once instead of once per file.
  e2e: async () => {
    if (!(await built("e2e"))) return;
    const files = await testFiles("e2e");
    const live = files.filter((f) => RECORDS_LIVE.has(path.basename(f)));
    const queue = files.filter((f) => !live.includes(f));
    console.log(`\n=== browser tests (Playwright, Chromium): ${queue.length} files, ${oneLane ? "one lane" : "a second lane once the side lane has ended"}`);
    const app = await startService("tests/e2e/shared-app.ts", "the browser tests' shared app");
    if (app.error) {
      failed += 1;
      failures.push(app.error);
      return;
    }
    try {
      const lane = async () => {
        for (let file; (file = queue.shift()); ) await suite(`browser tests: ${path.basename(file)}`, [file], app.env, ["--test-concurrency=1"], { hold: true });
      };
      await Promise.all([lane(), oneLane ? undefined : (side ?? Promise.resolve()).then(lane)]);
      await suite("browser tests that record live (alone, after the others)", live, app.env, ["--test-concurrency=1"]);
    } finally {
      await app.stop();
    }
  },
  sdk: async () => (await built("sdk")) && sdkSuites(),
  // Only when asked (--only=smoke): .ci/run runs it on the Node that package.json's engines name as
  // the floor, after the whole suite on Node 24: lint, the unit tests and one real start.
  smoke: async () => {
    await steps.lint();
    await steps.unit();
    if (await built("smoke")) await suite("one real start (npm start, a transcription over HTTP)", ["tests/system/server.test.ts"]);
  },
};
const askedOnly = new Set(["smoke"]);

const RECORDS_LIVE = new Set(["live-upload.test.ts"]);
const wanted = (name) => (only ? only.includes(name) : !askedOnly.has(name));
// The browser tests keep about half of the two cores busy (the fake microphone plays in real time,
// pages wait for their server): the system and SDK steps run beside them, in a second `npm test`
// whose output is shown when it ends. VD_TEST_ONE_LANE=1 runs every step in turn.
const SIDE_LANE = ["system", "sdk"].filter(wanted);
const oneLane = process.env.VD_TEST_ONE_LANE === "1";
const sideLane = wanted("e2e") && SIDE_LANE.length > 0 && !oneLane;

/** Runs the side lane's steps in a child `scripts/test.mjs`; resolves once it ended, with its output. */
function startSideLane() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), `--only=${SIDE_LANE.join(",")}`, ...(passThrough.length ? ["--", ...passThrough] : [])], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

const times = [];
const started = Date.now();
let side;
for (const [name, step] of Object.entries(steps)) {
  if (!wanted(name) || (sideLane && SIDE_LANE.includes(name))) continue;
  const stepStarted = Date.now();
  // Lint and typecheck each keep one core busy: side by side (their output, on failure, may interleave).
  if (name === "lint" && wanted("typecheck")) {
    const timed = async (n) => (await steps[n](), times.push([`${n} (together)`, (Date.now() - stepStarted) / 1000]));
    await Promise.all([timed("lint"), timed("typecheck")]);
    continue;
  }
  if (name === "typecheck" && wanted("lint")) continue;
  if (name === "e2e" && sideLane && (await built("e2e"))) {
    console.log(`\n=== ${SIDE_LANE.join(" and ")} beside the browser tests (their output follows the browser tests')`);
    side = startSideLane();
  }
  await step();
  times.push([name, (Date.now() - stepStarted) / 1000]);
}
if (side) {
  const { code, output } = await side;
  console.log(`\n=== ${SIDE_LANE.join(" and ")} (run beside the browser tests)\n${output}`);
  const tail = output.slice(Math.max(0, output.lastIndexOf("\nStep times:"))); // its own summary
  const summary = tail.match(/^(\d+) passed, (\d+) failed$/m);
  passed += Number(summary?.[1] ?? 0);
  failed += Number(summary?.[2] ?? 0);
  const sideFailures = tail.match(/^Failed: (.*)$/m)?.[1];
  if (sideFailures) failures.push(sideFailures);
  if (!summary || (code !== 0 && !Number(summary[2]))) {
    failed += 1;
    failures.push(`${SIDE_LANE.join(" and ")} (exited with ${code} without a count)`);
  }
  for (const [, name, seconds] of tail.matchAll(/^ {2}(\S+) +(\d+) s$/gm)) if (name !== "total") times.push([`${name} (beside)`, Number(seconds)]);
}

// Each step's time (the build is counted in the first step that needed it); steps marked
// "beside" ran at the same time as the browser tests, so the total is the time it all took.
console.log("\nStep times:");
for (const [name, seconds] of times) console.log(`  ${name.padEnd(22)} ${seconds.toFixed(0).padStart(5)} s`);
console.log(`  ${"total".padEnd(22)} ${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s`);
console.log("");
if (failures.length) console.log(`Failed: ${failures.join(", ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
