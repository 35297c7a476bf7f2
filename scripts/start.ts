// npm start (and npm run dev): the one command that runs Voicedraft.
//
// With DATABASE_URL unset this process hosts the embedded database (PGlite under DATA_DIR) for
// the Next server it starts, so nothing else needs installing. Either way it applies pending
// migrations, builds the app when the build is missing or older than the sources, and runs the
// app's server, scripts/serve.ts (Next's custom server; --dev for development), which takes
// requests once the database is ready and its own /api/health answers 200. It stays its
// parent: signals are forwarded, the database is closed after the server has stopped, and the
// server exits when this process dies (it holds the server's stdin), so a killed launcher never
// leaves it holding the port. The Next server works the background jobs (instrumentation.ts;
// JOBS_IN_APP, default true), so queued work continues after a restart.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { env } from "@/lib/env.ts";
import { log, errorFields } from "@/lib/log.ts";
import { EmbeddedDatabaseBusy, hostEmbeddedDatabase, type EmbeddedHost } from "@/lib/db/embedded.ts";
import { migrateDatabase } from "@/lib/db/migrate.ts";
import { startModelAutoDownloadIfNeeded } from "@/lib/transcription/recognizers/model-auto-download.ts";
import { startLocalModelDownloadIfNeeded } from "@/lib/writer/local/model-download.ts";
import { buildApp, nextEnv } from "@/scripts/build-app.ts";

const dev = process.argv.includes("--dev");
const root = process.cwd();
const SERVER_ROLES = new Set(["server", "dev server"]);

/**
 * The server's entry, plain JavaScript bundled beside the launcher's (scripts/build-launcher.mjs):
 * as `npm start` runs it, also when this launcher runs from source (npm run dev, tests, benches),
 * so that no TypeScript loader sits in the server's every module load.
 */
async function serverEntry(): Promise<string> {
  if (import.meta.url.endsWith(".mjs")) return path.join(path.dirname(fileURLToPath(import.meta.url)), "serve.mjs");
  const builder = pathToFileURL(path.join(root, "scripts", "build-launcher.mjs")).href;
  const { buildLauncher } = (await import(builder)) as { buildLauncher(): Promise<string> };
  return path.join(path.dirname(await buildLauncher()), "serve.mjs");
}

async function hostDatabase(dataDir: string, ready: (url: string) => Promise<void>): Promise<EmbeddedHost> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await hostEmbeddedDatabase(dataDir, dev ? "dev server" : "server", { ready });
    } catch (err) {
      if (!(err instanceof EmbeddedDatabaseBusy)) throw err;
      if (SERVER_ROLES.has(err.holder.role) || Date.now() > deadline) {
        throw new Error(
          `${err.message} Stop it first, or give this server its own DATA_DIR (or a DATABASE_URL).`,
        );
      }
      // A short-lived command (admin CLI, db:migrate) holds it; wait for it to finish.
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** The database, migrated: PostgreSQL, or the embedded one hosted by this process. */
async function openDatabase(config: ReturnType<typeof env>): Promise<EmbeddedHost | undefined> {
  if (config.DATABASE_URL) {
    const report = await migrateDatabase(config.DATABASE_URL);
    log.info("database ready", { kind: "postgresql", migrations_applied: report.applied });
    return undefined;
  }
  // Migrated before its port is published: a client started meanwhile (the admin CLI, a worker)
  // waits for the port instead of using a database whose migrations still run (lib/db/embedded.ts).
  let applied: string[] = [];
  const host = await hostDatabase(config.dataDir, async (url) => void ({ applied } = await migrateDatabase(url)));
  log.info("database ready", { kind: "embedded", data_dir: config.dataDir, migrations_applied: applied });
  return host;
}

/** Starts the server, tells it when the database is ready, and waits for it to stop. */
async function runServer(opening: Promise<EmbeddedHost | undefined>): Promise<number> {
  if (process.env.VD_SERIAL_START) await opening;
  await buildApp({ next: !dev });
  // No baseline wasm tier (Prisma's query compiler is wasm): less memory at idle (bench:memory).
  // A young generation of at most 8 MB, half V8's default: as lean at idle as 1 MB (the
  // launcher's), but under load (bench:api) 1 MB spent a fifth of the CPU collecting garbage
  // and cost a quarter of the throughput. The dev server keeps V8's defaults.
  const lean = dev ? [] : ["--max-semi-space-size=8", "--no-liftoff"];
  const args = [...lean, await serverEntry(), "--with-parent", ...(dev ? ["--dev"] : [])];
  // Its stdin is a pipe from us: it ends when we die, however we die; a line on it says the
  // database is ready (scripts/serve.ts waits for it before it takes requests).
  const serverEnv: NodeJS.ProcessEnv = { ...nextEnv, NODE_ENV: dev ? "development" : "production" };
  const child = spawn(process.execPath, args, { stdio: ["pipe", "inherit", "inherit"], env: serverEnv });
  child.stdin.on("error", () => undefined); // a server that died early: its exit is reported below
  let stopping = false;
  const forward = (signal: NodeJS.Signals) => {
    stopping = true;
    child.kill(signal);
  };
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  const exited = new Promise<number>((resolve) => {
    // Next exits with 128 + signal number when told to stop; asked to stop, that is success.
    child.on("exit", (status, signal) => resolve(stopping && (signal || (status ?? 0) > 128) ? 0 : (status ?? 1)));
  });
  try {
    await opening;
  } catch (err) {
    child.kill("SIGTERM");
    await exited;
    throw err;
  }
  child.stdin.write("database ready\n");
  // The accurate recognizer arrives in MODELS_DIR while PocketSphinx serves (TRANSCRIBE_ENGINE=auto).
  const modelDownload = startModelAutoDownloadIfNeeded();
  // The local writer's model, too (no WRITER_BASE_URL, WRITER_LOCAL=auto): the rules write until it lands.
  const writerModelDownload = startLocalModelDownloadIfNeeded();
  try {
    const code = await exited;
    log.info("server stopped", { exit_code: code });
    return code;
  } finally {
    await modelDownload?.stop();
    await writerModelDownload?.stop();
  }
}

async function main(): Promise<number> {
  const config = env();
  const opening = openDatabase(config);
  opening.catch(() => undefined); // awaited in runServer; a failure must not end the process before
  try {
    return await runServer(opening);
  } finally {
    await (await opening.catch(() => undefined))?.stop();
  }
}

try {
  process.exitCode = await main();
} catch (err) {
  log.error("could not start", errorFields(err));
  process.exitCode = 1;
}
// Everything this process started has been stopped; a leftover handle (a retry timer, a socket
// being closed) must not keep a launcher that has nothing left to do alive, holding its memory.
setTimeout(() => {
  const handles = (process as unknown as { _getActiveHandles?: () => object[] })._getActiveHandles?.() ?? [];
  log.warn("exiting with handles still open", { handles: handles.map((h) => h.constructor?.name ?? typeof h) });
  process.exit();
}, 5_000).unref();
