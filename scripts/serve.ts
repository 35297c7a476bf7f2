// The app's server process, started by scripts/start.ts (npm start, npm run dev): Next's documented
// custom server. Every request goes through Next's own request handler (its router, proxy.ts, the
// route handlers); lib/http/front-door.ts only prepares each request (client address, forwarded
// headers, request id) and answers what Node's parser or the Fetch standard leave bare.
//
// Flags: --dev (next dev), --with-parent (exit when the launcher dies: it holds our stdin).
import { env } from "@/lib/env.ts";
import { createFrontDoor } from "@/lib/http/front-door.ts";
import { errorFields, log } from "@/lib/log.ts";

const dev = process.argv.includes("--dev");
// The name `next start` gives its process, so tools (and tests) find the server the same way.
process.title = "next-server";

if (process.argv.includes("--with-parent")) {
  // Even a launcher killed by SIGKILL (which it cannot forward; Linux's PR_SET_PDEATHSIG is out of
  // Node's reach) closes our stdin: the server exits instead of holding the port as an orphan.
  process.stdin.on("end", () => process.exit(1));
  process.stdin.on("error", () => process.exit(1));
  process.stdin.resume();
}

const config = env();
// Imported once NODE_ENV is settled (the launcher sets it): Next reads it as it loads.
const { default: next } = await import("next");
const app = next({ dev, dir: process.cwd(), hostname: config.HOST, port: config.PORT });
await app.prepare();
const server = createFrontDoor(app.getRequestHandler(), {
  trustProxy: config.TRUST_PROXY,
  onError: (err) => log.error("request failed outside Next", errorFields(err)),
});

await new Promise<void>((resolve, reject) => {
  server.once("error", reject);
  server.listen(config.PORT, config.HOST, () => resolve());
});
log.info("server listening", { url: `http://${config.HOST}:${config.PORT}`, dev });

// As `next start`: stop taking connections, let Next close, exit with 128 + the signal's number.
const stop = (signal: NodeJS.Signals, code: number) => () => {
  log.info("server stopping", { signal });
  server.close();
  server.closeIdleConnections();
  void app.close().finally(() => process.exit(code));
};
process.once("SIGTERM", stop("SIGTERM", 143));
process.once("SIGINT", stop("SIGINT", 130));
