// npm test: lint, typecheck, and every test suite, on the embedded PGlite and on a real
// PostgreSQL (TEST_DATABASE_URL, or the local server when it is reachable). Ends with the line
// "N passed, N failed" (tests, plus lint and typecheck as one check each).
//
// Options: --only=<step>[,<step>] runs some steps (lint, typecheck, unit, db, api-pglite,
// api-postgres, system); extra arguments after -- go to `node --test` (e.g. --test-name-pattern).
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

function run(command, commandArgs, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
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

async function suite(name, files, env = {}) {
  console.log(`\n=== ${name}`);
  if (!files.length) return;
  const dir = await mkdtemp(path.join(tmpdir(), "vd-test-"));
  const tap = path.join(dir, "report.tap");
  const code = await run(
    process.execPath,
    [
      "--import",
      "tsx",
      "--test",
      "--test-concurrency=2",
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=tap",
      `--test-reporter-destination=${tap}`,
      ...passThrough,
      ...files,
    ],
    // A private DATA_DIR: no test may touch the checkout's ./data.
    { LOG_LEVEL: "silent", DATA_DIR: path.join(dir, "data"), ...env },
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
  system: async () => suite("system tests (CLI and the running server)", await testFiles("system")),
};

for (const [name, step] of Object.entries(steps)) {
  if (!only || only.includes(name)) await step();
}

console.log("");
if (failures.length) console.log(`Failed: ${failures.join(", ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
