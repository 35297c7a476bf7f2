// The app the browser tests drive: `npm start` on a fresh copy of a new embedded database, with
// PocketSphinx. playwright.config.ts's webServer runs this file as a program: one app for every
// file that wants only the defaults (a start costs about 8 s and 12 s of CPU here). Every test signs
// up its own person, so they share it as people share a deployment; only the sign-up limit (20 an
// hour from one address) is raised, as every test signs up from 127.0.0.1. A file that needs
// settings of its own starts one with startAppServer() (tests/e2e/fixtures.ts, `appEnv`).
//
// As a program (`node --import tsx tests/e2e/app-server.ts`) it builds the app when the build is
// missing or older than its sources (before any worker starts a server of its own), prints the
// line webServer.wait reads the URL from, and keeps the server up until SIGTERM or SIGINT, then
// stops it and removes its data directory.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { seedEmbeddedDatabase, startServer, type RunningServer } from "@/tests/support/processes.ts";

/**
 * The phones' browsers run on the server's own two cores here (on a real install they are other
 * devices). Ranked below them, the server's recognizers starved: the second pass (background work
 * runs at nice 19 by default) took over 240 s beside a browser converting a long recording with
 * ffmpeg.wasm at nice 0, and 37–59 s alone (issue 66). Here they run at the browsers' priority;
 * bench:contention and bench:live-load measure the ranks themselves.
 */
const BESIDE_THE_PHONES = { RECOGNIZER_NICE: "0", RECOGNIZER_BACKGROUND_NICE: "0" };

/** Starts the app with `env` over its test defaults; stop() also removes its data directory. */
export async function startAppServer(env: Record<string, string> = {}): Promise<{ url: string; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "vd-e2e-"));
  let server: RunningServer;
  try {
    await seedEmbeddedDatabase(dataDir);
    server = await startServer({ DATA_DIR: dataDir, TRANSCRIBE_ENGINE: "pocketsphinx", LOG_LEVEL: "warn", ...BESIDE_THE_PHONES, ...env });
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: server.url,
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The line webServer.wait in playwright.config.ts reads; its group becomes E2E_APP_URL in every worker. */
export const READY_LINE = /^the browser tests' app is at (?<e2e_app_url>http:\S+)$/m;

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const { buildApp } = await import("@/scripts/build-app.ts");
  await buildApp();
  const app = await startAppServer({ RATE_LIMIT_SIGNUPS_PER_HOUR: "1000" });
  console.log(`the browser tests' app is at ${app.url}`);
  let stopping: Promise<void> | undefined;
  const end = () => (stopping ??= app.stop().then(() => process.exit(0)));
  process.on("SIGTERM", end);
  process.on("SIGINT", end);
}
