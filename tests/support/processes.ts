import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { cp, rename, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

export type WorkerProcess = {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  kill(): void;
  /** SIGSTOP / SIGCONT to the whole group: a paused worker (and its recognizer) writes nothing until resumed. */
  pause(): void;
  resume(): void;
};

/**
 * An `npm run worker` process (scripts/worker.ts) with `env` on top of this one's, in its own
 * process group (tsx runs the script in a child process): `kill()` SIGKILLs the whole group, as a
 * crash would. Its output is kept for failure messages and log checks.
 */
export function startWorkerProcess(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, [TSX, path.join(ROOT, "scripts", "worker.ts")], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, name);
  };
  return {
    child,
    output: () => output,
    exited,
    kill: () => signal("SIGKILL"),
    pause: () => signal("SIGSTOP"),
    resume: () => signal("SIGCONT"),
  };
}

export type RunResult = { code: number; stdout: string; stderr: string };

/** Runs a project script (as `npm run` would, without npm's own output) and collects its output. */
export function runScript(script: string, args: string[], env: Record<string, string>, input?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, path.join(ROOT, "scripts", script), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export type RunningServer = {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<number>;
  /** Every answer /api/health gave while it started, in order (0: no connection). */
  healthSeen: number[];
};

// Creating the embedded database (initdb, in lib/db/create-embedded.ts) costs every server started
// on a new DATA_DIR 2–8 s of CPU, and every browser test file starts one. So the app's own creation
// runs once per machine and version, into the temp directory, and such servers start from a copy
// of that new, never-opened database (a PostgreSQL data directory copied while no server runs is a
// valid one). Tests of the creation itself, and the benches, start with none.
const EMBEDDED_SOURCES = ["lib/db/create-embedded.ts", "lib/db/embedded.ts", "lib/db/durable-node-fs.ts", "node_modules/@electric-sql/pglite/package.json"];
let embeddedTemplate: Promise<string> | undefined;

/** Puts a copy of a new embedded database in `dataDir` (which must hold none yet). */
export async function seedEmbeddedDatabase(dataDir: string): Promise<void> {
  embeddedTemplate ??= (async () => {
    const hash = createHash("sha256");
    for (const file of EMBEDDED_SOURCES) hash.update(readFileSync(path.join(ROOT, file)));
    const template = path.join(tmpdir(), `voicedraft-embedded-${hash.digest("hex").slice(0, 16)}`);
    if (existsSync(path.join(template, "PG_VERSION"))) return template;
    const aside = `${template}.${process.pid}`;
    await rm(aside, { recursive: true, force: true });
    const child = spawn(process.execPath, [TSX, path.join(ROOT, "lib", "db", "create-embedded.ts"), aside], { cwd: ROOT, stdio: ["pipe", "ignore", "inherit"] });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve)); // stdin stays open: it exits when that ends
    if (code !== 0) throw new Error(`creating the embedded database template failed (exit ${code})`);
    // Renamed whole into place: another test file starting now never copies half of it.
    await rename(aside, template).catch(async () => {
      await rm(aside, { recursive: true, force: true }); // another file made it first
    });
    return template;
  })();
  await cp(await embeddedTemplate, path.join(dataDir, "pglite"), { recursive: true });
}

/** The server's own words when its port was taken (scripts/serve.ts). */
const PORT_TAKEN = "is in use by another program";

/**
 * Starts `npm start`'s launcher and waits until /api/health answers (polled every `pollMs`). A free
 * port it picked can be taken before the server listens on it, seconds later (any connection's
 * local port comes from the same range): then it starts again on another one, twice at most.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 300_000, { pollMs = 500 } = {}): Promise<RunningServer> {
  for (let tries = 1; ; tries++) {
    try {
      return await startServerOn(env.PORT ? Number(env.PORT) : await freePort(), env, timeoutMs, pollMs);
    } catch (err) {
      if (env.PORT || tries >= 3 || !(err as Error).message.includes(PORT_TAKEN)) throw err;
    }
  }
}

async function startServerOn(port: number, env: Record<string, string>, timeoutMs: number, pollMs: number): Promise<RunningServer> {
  // tsx as a loader in the one process, not its CLI: the CLI relays a signal to the script's
  // process and, when that has not confirmed it within 30 ms (a loaded machine), SIGKILLs it and
  // exits 143, so a clean stop looked like a crash (launcher-start, in a full CI run).
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "start.ts")], {
    cwd: ROOT,
    // Open sign-up: every test signs up a person of its own (a new install admits only its owner and invitations).
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "info", WRITER_LOCAL: "off", WRITER_AUTO_DOWNLOAD: "false", SIGNUP: "open", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, so stopping it stops next too
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? 0)));
  const url = `http://127.0.0.1:${port}`;
  const server: RunningServer = {
    url,
    child,
    healthSeen: [],
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    const status = await fetch(`${url}/api/health`).then(
      (res) => (void res.body?.cancel(), res.status),
      () => 0, // not listening yet
    );
    server.healthSeen.push(status);
    if (status === 200) return server;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`the server did not become healthy in ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/**
 * A service run as a program for scripts/test.mjs (the SDK suites'): prints `env` (what reaches
 * it) as one JSON line, then stops it and exits when its stdin ends, or on SIGTERM or SIGINT.
 */
export function serveUntilStdinEnds(env: Record<string, string>, stop: () => Promise<void>): void {
  console.log(JSON.stringify(env));
  let stopping: Promise<void> | undefined;
  const end = () => (stopping ??= stop().then(() => process.exit(0)));
  process.stdin.on("end", end).resume();
  process.on("SIGTERM", end);
  process.on("SIGINT", end);
}

/** Starts tests/support/route-server.ts in its own process (its own env, e.g. its own engine). */
export async function startRouteServer(env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [TSX, path.join(ROOT, "tests", "support", "route-server.ts")], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "silent", WRITER_LOCAL: "off", WRITER_AUTO_DOWNLOAD: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      output += d;
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => reject(new Error(`route server exited with ${code}: ${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((r) => child.on("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
