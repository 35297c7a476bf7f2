import { after, before } from "node:test";
import { randomBytes } from "node:crypto";
import pg from "pg";
import "@/tests/support/env.ts"; // the tests' defaults (no local writer, no downloads) before any setting is read
import { resetEnvCache } from "@/lib/env.ts";
import { closeDb } from "@/lib/db/client.ts";
import { closeJobQueue } from "@/lib/jobs/queue.ts";
import { startInMemoryDatabase } from "@/tests/support/in-memory-database.ts";
import { migrateDatabase } from "@/lib/db/migrate.ts";

// Each test file runs in its own process with its own fresh database: an in-memory PGlite
// (TEST_DB=pglite, the default) or a new database on a real PostgreSQL (TEST_DB=postgres).
export type TestDbKind = "pglite" | "postgres";
export const testDbKind: TestDbKind = process.env.TEST_DB === "postgres" ? "postgres" : "pglite";
export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export type EmptyDatabase = { url: string; drop(): Promise<void> };

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A brand-new, unmigrated database of the kind under test. */
export async function createEmptyDatabase(kind: TestDbKind = testDbKind): Promise<EmptyDatabase> {
  if (kind === "pglite") {
    const host = await startInMemoryDatabase();
    return { url: host.url, drop: () => host.stop() };
  }
  const name = `vd_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    url: withDatabase(POSTGRES_ADMIN_URL, name),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * Registers hooks that give this test file a migrated database behind lib/db's client. Root-level
 * `before` hooks of a file may run concurrently, so a hook that needs the database awaits `ready`.
 */
export function setUpTestDatabase(): { url(): string; ready: Promise<void> } {
  let database: EmptyDatabase | undefined;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  before(async () => {
    database = await createEmptyDatabase();
    await migrateDatabase(database.url);
    process.env.DATABASE_URL = database.url;
    process.env.LOG_LEVEL ??= "silent";
    resetEnvCache();
    markReady();
  });
  after(async () => {
    await closeJobQueue();
    await closeDb();
    await database?.drop();
    // Everything of this file is closed; what still holds the process is a leftover, and it must
    // not hold the suite: a pg-boss worker whose job was cut off by the closed database kept
    // tests/api/optimization.test.ts alive 19 minutes after its last test (pg-boss waits for such
    // a worker in a loop of its own). Unref'd, so a file that ends on its own ends at once.
    // (node --test-force-exit would do it, but it ended files before all their tests had run.)
    setTimeout(() => process.exit(), 10_000).unref();
  });
  return {
    ready,
    url() {
      if (!database) throw new Error("setUpTestDatabase: the database exists only inside tests");
      return database.url;
    },
  };
}

/** Whether a PostgreSQL server is reachable; a configured TEST_DATABASE_URL must be. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch (err) {
    if (process.env.TEST_DATABASE_URL) throw err;
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
