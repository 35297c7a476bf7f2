import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, open, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { env } from "@/lib/env.ts";
import { readOrCreateSecretFile } from "@/lib/secret-file.ts";
import { DurableNodeFS, durableStartParams } from "@/lib/db/durable-node-fs.ts";
import { serveWire, type WireOptions } from "@/lib/db/pglite-wire-server.ts";
import { isProcessAlive } from "@/lib/process-alive.ts";

// The embedded database is PGlite (Postgres compiled to wasm) on disk. PGlite allows a single
// process per data directory, so one process "hosts" it and serves the Postgres wire protocol on
// loopback; every other process (the Next server, the worker, the admin CLI) connects with the
// same `pg` driver it would use for a real PostgreSQL. A lock file names the host and its port;
// a secret file (readable by its owner only) holds the password every client must prove it knows.

export type EmbeddedHost = { url: string; stop(): Promise<void> };
type LockInfo = { pid: number; port: number; role: string; startedAt: string };

const LOCK_FILE = "embedded-db.lock";
const SECRET_FILE = "embedded-db.secret";
const MAX_CONNECTIONS = 64;
// Postgres's defaults size its shared memory for a server of its own (128 MB of buffers); inside
// the launcher's wasm heap that is resident for good. The files stay in the OS page cache anyway.
const LEAN_START_PARAMS = ["-c", "shared_buffers=16MB", "-c", "max_connections=10"];

export function embeddedUrl(port: number, secret: string): string {
  return `postgresql://postgres:${encodeURIComponent(secret)}@127.0.0.1:${port}/postgres?sslmode=disable`;
}

/** The wire server's password for this data directory, created on first use (mode 0600). */
function readOrCreateSecret(dataDir: string): Promise<string> {
  return readOrCreateSecretFile(path.join(dataDir, SECRET_FILE), "delete it and start again");
}

export function wireLimits(): WireOptions {
  const config = env();
  return {
    idleInTransactionMs: config.EMBEDDED_DB_IDLE_IN_TRANSACTION_SECONDS * 1000,
    maxTurnMs: config.EMBEDDED_DB_MAX_HOLD_SECONDS * 1000,
  };
}

export class EmbeddedDatabaseBusy extends Error {
  constructor(readonly holder: LockInfo) {
    super(`The embedded database is in use by process ${holder.pid} (${holder.role}).`);
  }
}

async function readLock(dataDir: string): Promise<LockInfo | null> {
  try {
    const info = JSON.parse(await readFile(path.join(dataDir, LOCK_FILE), "utf8")) as LockInfo;
    return isProcessAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

// How long a client waits for a host that holds the lock but serves nothing yet: it is opening the
// database (after a crash: replaying its WAL) and applying migrations, seconds as a rule.
const STARTING_HOST_WAIT_MS = 120_000;

/**
 * The URL of a live host for this data directory, if another process is serving it. A host still
 * opening it is waited for: it publishes its port once the database is open and migrated.
 */
export async function findEmbeddedHost(dataDir: string): Promise<{ url: string; role: string } | null> {
  const deadline = Date.now() + STARTING_HOST_WAIT_MS;
  for (;;) {
    const info = await readLock(dataDir);
    if (!info || info.pid === process.pid) return null;
    if (info.port !== 0) return { url: embeddedUrl(info.port, await readOrCreateSecret(dataDir)), role: info.role };
    if (Date.now() > deadline) return null; // hosting it then fails with EmbeddedDatabaseBusy, naming the holder
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function acquireLock(dataDir: string, role: string): Promise<(port: number) => Promise<() => Promise<void>>> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, "wx");
      await handle.writeFile(JSON.stringify({ pid: process.pid, port: 0, role, startedAt: new Date().toISOString() }));
      await handle.close();
      return async (port) => {
        const info: LockInfo = { pid: process.pid, port, role, startedAt: new Date().toISOString() };
        // Written aside and renamed: a client waiting for the port never reads half a file.
        await writeFile(`${file}.${process.pid}`, JSON.stringify(info));
        await rename(`${file}.${process.pid}`, file);
        return () => unlink(file).catch(() => undefined);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = await readLock(dataDir);
      if (holder) throw new EmbeddedDatabaseBusy(holder);
      await unlink(file).catch(() => undefined); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock ${file}`);
}

/** Opens (creating when new) the on-disk database in this process. */
export function openEmbeddedDatabase(pgDir: string): Promise<PGlite> {
  return PGlite.create({ fs: new DurableNodeFS(pgDir), startParams: [...durableStartParams(), ...LEAN_START_PARAMS] });
}

// Creating a database (initdb, then a first start) takes PGlite's wasm heap to ~700 MB, and a wasm
// heap never shrinks: a host that created its database would keep that for good (an existing one
// opens at ~200 MB). So a new database is made by a short-lived process (lib/db/create-embedded.ts).
async function createInChildProcess(pgDir: string): Promise<void> {
  if (existsSync(path.join(pgDir, "PG_VERSION"))) return;
  const root = process.cwd();
  const tsx = pathToFileURL(createRequire(path.join(root, "package.json")).resolve("tsx")).href;
  const child = spawn(process.execPath, ["--import", tsx, path.join(root, "lib", "db", "create-embedded.ts"), pgDir], {
    stdio: ["pipe", "ignore", "pipe"], // stdin: ends when this process dies, and the child with it
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr = (stderr + d).slice(-4000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (status) => resolve(status));
  });
  if (code !== 0) throw new Error(`Creating the embedded database in ${pgDir} failed (exit ${code}): ${stderr.trim()}`);
}

export async function serve(db: PGlite, options: WireOptions): Promise<{ port: number; server: { stop(): Promise<void> } }> {
  // The embedded database's pages are in this process's memory: a page read at random costs what
  // a page read in sequence does, as PostgreSQL's documentation advises for data held in RAM. With
  // the default (4), the planner scanned every note for a word in 12% of them instead of using the
  // search index (bench:search, 10,000 notes: 60 ms → 20 ms). Its one session is everyone's.
  await db.exec("SET random_page_cost = 1.1");
  const server = await serveWire(db, { maxConnections: MAX_CONNECTIONS, ...options });
  return { port: server.port, server };
}

/**
 * Opens the on-disk database in this process and serves it to the others. `ready` (e.g. applying
 * migrations) runs before the port is published in the lock file, so no other process connects
 * before it is done.
 */
export async function hostEmbeddedDatabase(
  dataDir: string,
  role: string,
  { ready }: { ready?: (url: string) => Promise<void> } = {},
): Promise<EmbeddedHost> {
  const publish = await acquireLock(dataDir, role);
  let db: PGlite | undefined;
  try {
    const secret = await readOrCreateSecret(dataDir);
    const pgDir = path.join(dataDir, "pglite");
    await createInChildProcess(pgDir);
    db = await openEmbeddedDatabase(pgDir);
    const { port, server } = await serve(db, { password: secret, ...wireLimits() });
    try {
      await ready?.(embeddedUrl(port, secret));
    } catch (err) {
      await server.stop();
      throw err;
    }
    const release = await publish(port);
    const opened = db;
    return {
      url: embeddedUrl(port, secret),
      async stop() {
        await server.stop();
        await opened.close();
        await release();
      },
    };
  } catch (err) {
    await db?.close().catch(() => undefined);
    await unlink(path.join(dataDir, LOCK_FILE)).catch(() => undefined);
    throw err;
  }
}
