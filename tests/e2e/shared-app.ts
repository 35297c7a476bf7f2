// One running app for the browser test files that need nothing but the defaults: started once by
// scripts/test.mjs, not once per file. Each server start costs about 8 s and 12 s of CPU here, and
// 17 of the files want the same one; every test signs up its own person, so they share it as
// people share a real deployment (only the sign-up limit, 20 an hour from one address, is raised:
// every file signs up from 127.0.0.1).
//
// As a program (`node --import tsx tests/e2e/shared-app.ts`) it prints one JSON line with the
// environment that points startApp() at it (E2E_SHARED_URL), keeps the server up until its stdin
// closes (or SIGTERM), then stops it and removes its data directory.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { seedEmbeddedDatabase, startServer, type RunningServer } from "@/tests/support/processes.ts";

/** The server every default startApp() used to start for itself, with the sign-up limit raised. */
export const APP_ENV = { TRANSCRIBE_ENGINE: "pocketsphinx", LOG_LEVEL: "warn" } as const;

async function startSharedApp(): Promise<{ url: string; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "vd-e2e-shared-"));
  let server: RunningServer;
  try {
    await seedEmbeddedDatabase(dataDir);
    server = await startServer({ DATA_DIR: dataDir, ...APP_ENV, RATE_LIMIT_SIGNUPS_PER_HOUR: "1000" });
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
  const app = await startSharedApp();
  console.log(JSON.stringify({ E2E_SHARED_URL: app.url }));
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= app.stop().then(() => process.exit(0)));
  process.stdin.on("end", stop).resume();
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
