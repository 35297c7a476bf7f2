import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import pg from "pg";
import { MIGRATIONS_DIR, MigrationError, migrateDatabase, readMigrations } from "@/lib/db/migrate.ts";
import { findSchemaDrift } from "@/tests/support/schema-drift.ts";
import { createEmptyDatabase, postgresAvailable, type TestDbKind } from "../support/database.ts";

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const tempDirs: string[] = [];
after(async () => {
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});

async function copyOfMigrations(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "vd-migrations-"));
  tempDirs.push(dir);
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

for (const kind of ["pglite", "postgres"] as TestDbKind[]) {
  describe(`migrations on an empty ${kind === "pglite" ? "PGlite" : "PostgreSQL"} database`, () => {
    const skip = async (t: { skip(message: string): void }) => {
      if (kind === "postgres" && !(await postgresAvailable())) {
        t.skip("no PostgreSQL reachable (set TEST_DATABASE_URL)");
        return true;
      }
      return false;
    };

    test("apply once, record Prisma's bookkeeping, match the schema, and are idempotent", async (t) => {
      if (await skip(t)) return;
      const database = await createEmptyDatabase(kind);
      try {
        const migrations = await readMigrations();
        const first = await migrateDatabase(database.url);
        assert.deepEqual(first.applied, migrations.map((m) => m.name));
        const second = await migrateDatabase(database.url);
        assert.deepEqual(second, { applied: [], alreadyApplied: migrations.length });

        await withClient(database.url, async (client) => {
          const { rows } = await client.query(
            `SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
          );
          assert.equal(rows.length, migrations.length);
          for (const [i, row] of rows.entries()) {
            const sql = await readFile(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
            assert.equal(row.migration_name, migrations[i].name);
            assert.equal(row.checksum, createHash("sha256").update(sql).digest("hex"), "Prisma's checksum");
            assert.ok(row.finished_at instanceof Date);
            assert.equal(row.rolled_back_at, null);
            assert.equal(row.applied_steps_count, 1);
          }
          assert.deepEqual(await findSchemaDrift((sql, params) => client.query(sql, params).then((r) => r.rows)), []);
        });
      } finally {
        await database.drop();
      }
    });

    test("concurrent migrators apply each migration exactly once", async (t) => {
      if (await skip(t)) return;
      const database = await createEmptyDatabase(kind);
      try {
        const reports = await Promise.all(Array.from({ length: 4 }, () => migrateDatabase(database.url)));
        const applied = reports.flatMap((r) => r.applied).sort();
        assert.deepEqual(applied, (await readMigrations()).map((m) => m.name));
        await withClient(database.url, async (client) => {
          const { rows } = await client.query(
            `SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY migration_name`,
          );
          for (const row of rows) assert.equal(row.n, 1, row.migration_name);
        });
      } finally {
        await database.drop();
      }
    });

    test("an edited migration is refused; a broken one rolls back completely and is recorded", async (t) => {
      if (await skip(t)) return;
      const database = await createEmptyDatabase(kind);
      try {
        const dir = await copyOfMigrations();
        await migrateDatabase(database.url, dir);

        const broken = path.join(dir, "29990101000000_broken");
        await mkdir(broken);
        await writeFile(
          path.join(broken, "migration.sql"),
          `CREATE TABLE "half_done" (id int);\nALTER TABLE "no_such_table" ADD COLUMN x int;\n`,
        );
        await assert.rejects(migrateDatabase(database.url, dir), (err: Error) => {
          assert.ok(err instanceof MigrationError);
          assert.match(err.message, /29990101000000_broken failed and was rolled back: .*no_such_table/);
          return true;
        });
        await withClient(database.url, async (client) => {
          const { rows } = await client.query(`SELECT to_regclass('"half_done"')::text AS t`);
          assert.equal(rows[0].t, null, "nothing of the failed migration remains");
          const record = await client.query(
            `SELECT finished_at, rolled_back_at, logs FROM "_prisma_migrations" WHERE migration_name = '29990101000000_broken'`,
          );
          assert.equal(record.rows.length, 1);
          assert.equal(record.rows[0].finished_at, null);
          assert.ok(record.rows[0].rolled_back_at instanceof Date);
        });
        // Fixed, it applies.
        await writeFile(path.join(broken, "migration.sql"), `CREATE TABLE "half_done" (id int);\n`);
        assert.deepEqual((await migrateDatabase(database.url, dir)).applied, ["29990101000000_broken"]);

        const [firstName] = (await readMigrations(dir)).map((m) => m.name);
        await writeFile(path.join(dir, firstName, "migration.sql"), "-- edited\n", { flag: "a" });
        await assert.rejects(migrateDatabase(database.url, dir), /was edited after it was applied/);
      } finally {
        await database.drop();
      }
    });
  });
}
