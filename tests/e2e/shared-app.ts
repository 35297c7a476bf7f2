// The app the browser tests drive: `npm start` on a fresh copy of a new embedded database, with
// PocketSphinx. startApp() starts one for a file that needs settings of its own; the files that
// want only the defaults share one, started once by scripts/test.mjs rather than once per file
// (a start costs about 8 s and 12 s of CPU here). Every test signs up its own person, so they
// share it as people share a deployment; only the sign-up limit (20 an hour from one address)
// is raised, as every file signs up from 127.0.0.1.
//
// As a program (`node --import tsx tests/e2e/shared-app.ts`) it prints one JSON line with the
// environment that points startApp() at it (E2E_SHARED_URL), keeps the server up until its stdin
// closes (or SIGTERM), then stops it and removes its data directory.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { seedEmbeddedDatabase, serveUntilStdinEnds, startServer, type RunningServer } from "@/tests/support/processes.ts";

/** Starts the app with `env` over its test defaults; stop() also removes its data directory. */
export async function startAppServer(env: Record<string, string> = {}): Promise<{ url: string; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "vd-e2e-"));
  let server: RunningServer;
  try {
    await seedEmbeddedDatabase(dataDir);
    server = await startServer({ DATA_DIR: dataDir, TRANSCRIBE_ENGINE: "pocketsphinx", LOG_LEVEL: "warn", ...env });
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

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const app = await startAppServer({ RATE_LIMIT_SIGNUPS_PER_HOUR: "1000" });
  serveUntilStdinEnds({ E2E_SHARED_URL: app.url }, () => app.stop());
}
