import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { errorFields, log } from "@/lib/log.ts";

// Applies prisma/migrations the way `prisma migrate deploy` does (same _prisma_migrations table,
// same checksum, same advisory lock key), because Prisma's native schema engine cannot be
// downloaded here. Either tool can take over a database the other one migrated.
const PRISMA_ADVISORY_LOCK_KEY = 72707369;

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

export type Migration = { name: string; sql: string; checksum: string };
export type MigrationReport = { applied: string[]; alreadyApplied: number };

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

type AppliedRow = { migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null };

export class MigrationError extends Error {}

/** Applies every pending migration in order, each in its own transaction, under Prisma's lock. */
export async function migrateDatabase(connectionString: string, dir = MIGRATIONS_DIR): Promise<MigrationReport> {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString });
  // A dropped connection fails the migration (the statement's promise rejects); without a listener
  // the client's own 'error' event, emitted after, would end the process.
  client.on("error", (err) => log.warn("migration connection lost", errorFields(err)));
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`,
    );
    const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed) {
      throw new MigrationError(
        `Migration ${failed.migration_name} failed earlier and was not rolled back; fix the database, then mark it rolled back.`,
      );
    }
    const done = new Map(rows.filter((r) => r.finished_at).map((r) => [r.migration_name, r.checksum]));
    const applied: string[] = [];
    for (const migration of migrations) {
      const checksum = done.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new MigrationError(`Migration ${migration.name} was edited after it was applied (checksum differs).`);
        }
        continue;
      }
      if (await applyMigration(client, migration)) applied.push(migration.name);
    }
    return { applied, alreadyApplied: migrations.length - applied.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

/** Applies one migration; false when another migrator applied it first. */
async function applyMigration(client: pg.Client, migration: Migration): Promise<boolean> {
  const id = randomUUID();
  // The bookkeeping row commits with the migration itself, so a crash mid-way leaves neither behind.
  try {
    await client.query("BEGIN");
    // The advisory lock already serialises migrators on PostgreSQL; the embedded database is one
    // shared session where that lock is re-entrant, so check again inside the transaction.
    await client.query(`LOCK TABLE "_prisma_migrations" IN EXCLUSIVE MODE`);
    const { rowCount } = await client.query(
      `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1 AND finished_at IS NOT NULL`,
      [migration.name],
    );
    if (rowCount) {
      await client.query("ROLLBACK");
      return false;
    }
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`,
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.sql);
    await client.query(
      `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
      [id],
    );
    await client.query("COMMIT");
    return true;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    const message = (err as Error).message;
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, rolled_back_at, logs)
       VALUES ($1, $2, $3, now(), now(), $4)`,
      [id, migration.checksum, migration.name, message],
    );
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${message}`);
  }
}

export type QueryRows = (sql: string) => Promise<Record<string, unknown>[]>;

/** Names of migrations present on disk but not applied to the database (for health reporting). */
export async function pendingMigrations(query: QueryRows, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  const [table] = await query(`SELECT to_regclass('"_prisma_migrations"')::text AS name`);
  if (!table?.name) return migrations.map((m) => m.name);
  const rows = await query(`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`);
  const done = new Set(rows.map((r) => r.migration_name));
  return migrations.filter((m) => !done.has(m.name)).map((m) => m.name);
}
