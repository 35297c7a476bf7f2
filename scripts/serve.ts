// The app's server process, started by scripts/start.ts (npm start, npm run dev): Next's documented
// custom server. Every request goes through Next's own request handler (its router, proxy.ts, the
// route handlers); lib/http/front-door.ts only prepares each request (client address, forwarded
// headers, request id) and answers what Node's parser or the Fetch standard leave bare.
//
// Flags: --dev (next dev), --with-parent (the launcher holds our stdin: we exit when it dies, and
// take requests only after it writes that the database is ready).
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { env } from "@/lib/env.ts";
import { createFrontDoor } from "@/lib/http/front-door.ts";
import { apiPace, createKeyTurns, type Pace } from "@/lib/http/key-turns.ts";
import { errorFields, log } from "@/lib/log.ts";
import { refusedAtTheDoor } from "@/lib/rate-limit/refused-keys.ts";
import { markListening } from "@/lib/server-listening.ts";

const dev = process.argv.includes("--dev");
// The name `next start` gives its process, so tools (and tests) find the server the same way.
process.title = "next-server";

let databaseReady: Promise<void> = Promise.resolve();
if (process.argv.includes("--with-parent")) {
  // Even a launcher killed by SIGKILL (which it cannot forward; Linux's PR_SET_PDEATHSIG is out of
  // Node's reach) closes our stdin: the server exits instead of holding the port as an orphan.
  process.stdin.on("end", () => process.exit(1));
  process.stdin.on("error", () => process.exit(1));
  databaseReady = new Promise((resolve) => process.stdin.once("data", () => resolve()));
  process.stdin.resume();
}

const WARM_UP_SECONDS = 60;

/** GET /api/health through the server's private socket; the status, 0 when none came. */
function healthStatus(socketPath: string): Promise<number> {
  return new Promise((resolve) => {
    // agent: false: one connection per request, closed after it, so the server can close at once.
    const req = http.get({ socketPath, path: "/api/health", agent: false }, (res) => {
      res.resume().on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
  });
}

/**
 * The first request to a Next server starts its instrumentation (the job workers), loads the
 * route's code and opens the database client, seconds of work that would otherwise keep the first
 * caller waiting or answer 503. Done here, before the real port opens, on a Unix socket of its own:
 * a loopback port of its own (port 0) was once the very port another server starting beside it
 * had just been given, which then could not listen (EADDRINUSE, in a system test).
 */
async function warmUp(server: http.Server): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "vd-warm-up-"));
  const socketPath = path.join(dir, "server.sock");
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => resolve());
    });
    const deadline = Date.now() + WARM_UP_SECONDS * 1000;
    let status = await healthStatus(socketPath);
    while (status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      status = await healthStatus(socketPath);
    }
    // Listening regardless: /api/health then says what is wrong (503 and why) to whoever asks.
    if (status !== 200) log.warn("the app is not healthy yet; taking requests anyway", { health_status: status });
    await new Promise((resolve) => server.close(resolve));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An API key's turns at the front door (key-turns.ts): `atOnce` (0: any number), at `pace` (undefined: any); neither, none. */
function keyTurns(atOnce: number, pace: Pace | undefined) {
  return atOnce || pace ? createKeyTurns({ perKey: atOnce || Infinity, maxWaiting: 200, pace }) : undefined;
}

const config = env();
// Imported once NODE_ENV is settled (the launcher sets it): Next reads it as it loads.
const { default: next } = await import("next");
const app = next({ dev, dir: process.cwd(), hostname: config.HOST, port: config.PORT });
await app.prepare();
const server = createFrontDoor(app.getRequestHandler(), {
  trustProxy: config.TRUST_PROXY,
  onError: (err) => log.error("request failed outside Next", errorFields(err)),
  decided: (req) => refusedAtTheDoor(req.url, req.headers.authorization),
  turns: keyTurns(config.API_REQUESTS_AT_ONCE_PER_KEY, apiPace(config.RATE_LIMIT_API_PER_MINUTE)),
});

// Before the warm-up: the job workers it starts listen for these signals too, and a handler of
// theirs alone would keep the process from exiting.
// As `next start`: stop taking connections, let Next close, exit with 128 + the signal's number.
let stopping = false;
const stop = (signal: NodeJS.Signals, code: number) => () => {
  stopping = true;
  log.info("server stopping", { signal });
  server.close();
  server.closeIdleConnections();
  void app.close().finally(() => process.exit(code));
};
process.once("SIGTERM", stop("SIGTERM", 143));
process.once("SIGINT", stop("SIGINT", 130));

await databaseReady;
// The development server compiles each route on its first request, so it is not warmed up.
if (!dev) await warmUp(server);
if (!stopping) {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.PORT, config.HOST, () => resolve());
    });
  } catch (err) {
    // Said and ended here: Next's own handler of uncaught exceptions would log it and keep the
    // process running, listening nowhere, so `npm start` would seem to hang.
    const inUse = (err as NodeJS.ErrnoException).code === "EADDRINUSE";
    log.error(inUse ? `port ${config.PORT} on ${config.HOST} is in use by another program: stop it, or set PORT` : "could not listen", errorFields(err));
    process.exit(1);
  }
  log.info("server listening", { url: `http://${config.HOST}:${config.PORT}`, dev });
  markListening();
}
