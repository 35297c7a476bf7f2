// The processes npm test starts: commands, the services some steps run against, the app's build; and where
// their output goes.
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Where a lane's output goes: straight to this process's stdout, or, held, kept and printed in one piece
 * when its owner ends (the side lane, beside the browser tests).
 */
export class Output {
  text = "";
  constructor(held = false) {
    this.held = held;
  }
  write(chunk) {
    if (this.held) this.text += chunk;
    else process.stdout.write(chunk);
  }
  log(line) {
    this.write(`${line}\n`);
  }
}

/** Runs a command to its end; resolves with its exit code (1 when it could not start, or was killed). */
export function run(command, args, { env = {}, out }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: out.held ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
    });
    child.stdout?.on("data", (d) => out.write(d));
    child.stderr?.on("data", (d) => out.write(d));
    child.on("error", (err) => (out.log(`${command}: ${err.message}`), resolve(1)));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Starts a program that runs a service for a step (tests/support/sdk-service.ts: the SDK suites') and
 * prints one JSON line with the environment that reaches it; resolves to that env, or an error. It stops
 * when its stdin ends.
 */
export function startService(program, what, out) {
  const child = spawn(process.execPath, ["--import", "tsx", program], {
    cwd: root,
    stdio: ["pipe", "pipe", out.held ? "pipe" : "inherit"],
  });
  child.stderr?.on("data", (d) => out.write(d));
  const stop = () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.on("exit", resolve), child.stdin.end())));
  return new Promise((resolve) => {
    let first = "";
    child.stdout.on("data", (d) => {
      first += d;
      if (first.includes("\n")) resolve({ env: JSON.parse(first.slice(0, first.indexOf("\n"))), stop });
    });
    child.on("exit", (code) => resolve({ error: `${what} did not start (exit ${code})`, stop }));
  });
}

// The steps that start servers share one production build, made before the first of them (servers started
// side by side would otherwise each find it missing; scripts/build-app.ts also serializes).
let building;
/** Builds the app once for every step that needs it; resolves whether it was built. */
export function buildApp(out) {
  building ??= run(process.execPath, ["--import", "tsx", path.join(root, "scripts", "build-app.ts")], { out }).then((code) => code === 0);
  return building;
}

/** Whether a PostgreSQL server answers at the URL's host and port. */
export function reachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || "127.0.0.1", port: Number(port) || 5432 });
    socket.setTimeout(2000);
    socket.on("connect", () => (socket.destroy(), resolve(true)));
    socket.on("timeout", () => (socket.destroy(), resolve(false)));
    socket.on("error", () => resolve(false));
  });
}
