import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite, type PGliteInterface } from "@electric-sql/pglite";
import pg from "pg";
import { findSchemaDrift, type Query } from "@/tests/support/schema-drift.ts";
import { createEmptyDatabase, POSTGRES_ADMIN_URL, postgresAvailable } from "../support/database.ts";

// --- Database setup ---------------------------------------------------------------------------

const MIGRATIONS_DIR = path.join(import.meta.dirname, "../../prisma/migrations");

function migrationScripts(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => fs.readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8"));
}

const templates = new Map<string, Promise<PGlite>>();
after(async () => {
  for (const template of templates.values()) await (await template).close();
});

/** A fresh in-memory PGlite with `scripts` applied (all migrations by default). */
async function pglite(scripts = migrationScripts()): Promise<PGliteInterface> {
  // Cloning a migrated template is about twice as fast as PGlite.create() per test.
  const key = scripts.join("\n;\n");
  let template = templates.get(key);
  if (!template) {
    template = PGlite.create().then(async (db) => {
      for (const sql of scripts) await db.exec(sql);
      return db;
    });
    templates.set(key, template);
  }
  return (await template).clone();
}

function queryOf(db: PGliteInterface): Query {
  return (sql, params) => db.query<Record<string, unknown>>(sql, params).then((result) => result.rows);
}

/** Runs `fn` against a new, migrated PostgreSQL database that is dropped afterwards. */
async function withMigratedPostgres<T>(fn: (query: Query) => Promise<T>): Promise<T> {
  const database = await createEmptyDatabase("postgres");
  const client = new pg.Client({ connectionString: database.url });
  try {
    await client.connect();
    for (const sql of migrationScripts()) await client.query(sql);
    return await fn((sql, params) => client.query(sql, params).then((result) => result.rows));
  } finally {
    await client.end().catch(() => {});
    await database.drop();
  }
}

// ---------------------------------------------------------------------------------------------

async function driftAfter(breakingSql: string): Promise<string[]> {
  const db = await pglite();
  try {
    await db.exec(breakingSql);
    return await findSchemaDrift(queryOf(db));
  } finally {
    await db.close();
  }
}

describe("migrations match prisma/schema.prisma", () => {
  test("on PGlite", async () => {
    const db = await pglite();
    try {
      assert.deepEqual(await findSchemaDrift(queryOf(db)), []);
    } finally {
      await db.close();
    }
  });

  test("on PostgreSQL", async (t) => {
    if (!(await postgresAvailable())) return t.skip(`no PostgreSQL at ${POSTGRES_ADMIN_URL}`);
    await withMigratedPostgres(async (query) => {
      assert.deepEqual(await findSchemaDrift(query), []);
      await query(`DROP INDEX "sessions_user_id_idx"`);
      assert.deepEqual(await findSchemaDrift(query), [
        'index "sessions_user_id_idx" is missing: expected index on sessions (user_id) using btree',
      ]);
    });
  });
});

describe("detects a migration that does not match the schema", () => {
  const cases: { mistake: string; sql: string; drift: string[] }[] = [
    {
      mistake: "a dropped index",
      sql: `DROP INDEX "accounts_user_id_idx"`,
      drift: ['index "accounts_user_id_idx" is missing: expected index on accounts (user_id) using btree'],
    },
    {
      mistake: "a dropped unique index",
      sql: `DROP INDEX "users_email_key"`,
      drift: ['index "users_email_key" is missing: expected unique index on users (email) using btree'],
    },
    {
      mistake: "an index that is not unique",
      sql: `DROP INDEX "users_email_key"; CREATE INDEX "users_email_key" ON "users"("email")`,
      drift: [
        'index "users_email_key" differs: database has index on users (email) using btree, schema.prisma expects unique index on users (email) using btree',
      ],
    },
    {
      mistake: "index columns in the wrong order",
      sql: `DROP INDEX "api_keys_user_id_created_at_idx"; CREATE INDEX "api_keys_user_id_created_at_idx" ON "api_keys"("created_at", "user_id")`,
      drift: [
        'index "api_keys_user_id_created_at_idx" differs: database has index on api_keys (created_at, user_id) using btree, schema.prisma expects index on api_keys (user_id, created_at) using btree',
      ],
    },
    {
      mistake: "an index named differently from Prisma's convention",
      sql: `ALTER INDEX "sessions_user_id_idx" RENAME TO "sessions_user_idx"`,
      drift: [
        'index "sessions_user_id_idx" is missing: expected index on sessions (user_id) using btree',
        'index "sessions_user_idx" is not in schema.prisma: index on sessions (user_id) using btree',
      ],
    },
    {
      mistake: "a column with the wrong nullability",
      sql: `ALTER TABLE "users" ALTER COLUMN "name" SET NOT NULL`,
      drift: ['column "users"."name" is NOT NULL, schema.prisma expects nullable'],
    },
    {
      mistake: "a column with the wrong type",
      sql: `ALTER TABLE "accounts" ALTER COLUMN "expires_at" TYPE BIGINT`,
      drift: ['column "accounts"."expires_at" has type bigint, schema.prisma expects integer'],
    },
    {
      mistake: "a timestamp without time zone",
      sql: `ALTER TABLE "sessions" ALTER COLUMN "expires" TYPE TIMESTAMP(3)`,
      drift: ['column "sessions"."expires" has type timestamp(3) without time zone, schema.prisma expects timestamp(3) with time zone'],
    },
    {
      mistake: "a missing column",
      sql: `ALTER TABLE "users" DROP COLUMN "image"`,
      drift: ['column "users"."image" is missing: expected text'],
    },
    {
      mistake: "an extra column",
      sql: `ALTER TABLE "users" ADD COLUMN "nickname" TEXT`,
      drift: ['column "users"."nickname" is not in schema.prisma: text'],
    },
    {
      mistake: "a missing default",
      sql: `ALTER TABLE "users" ALTER COLUMN "created_at" DROP DEFAULT`,
      drift: ['column "users"."created_at" has no default, schema.prisma expects CURRENT_TIMESTAMP'],
    },
    {
      mistake: "a database default for a client-side uuid() id",
      sql: `ALTER TABLE "users" ALTER COLUMN "id" SET DEFAULT gen_random_uuid()::text`,
      drift: ['column "users"."id" has default (gen_random_uuid())::text, schema.prisma expects no default'],
    },
    {
      mistake: "a missing foreign key",
      sql: `ALTER TABLE "sessions" DROP CONSTRAINT "sessions_user_id_fkey"`,
      drift: [
        'foreign key "sessions_user_id_fkey" is missing: expected sessions (user_id) references users (id) on delete CASCADE on update CASCADE',
      ],
    },
    {
      mistake: "a foreign key with the wrong ON DELETE",
      sql: `ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_user_id_fkey";
        ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE`,
      drift: [
        'foreign key "api_keys_user_id_fkey" differs: database has api_keys (user_id) references users (id) on delete RESTRICT on update CASCADE, schema.prisma expects api_keys (user_id) references users (id) on delete CASCADE on update CASCADE',
      ],
    },
    {
      mistake: "a missing table",
      sql: `DROP TABLE "verification_tokens"`,
      drift: ['table "verification_tokens" is missing'],
    },
    {
      mistake: "an extra table",
      sql: `CREATE TABLE "leftovers" ("id" TEXT NOT NULL, CONSTRAINT "leftovers_pkey" PRIMARY KEY ("id"))`,
      drift: ['table "leftovers" is not in schema.prisma'],
    },
  ];

  for (const { mistake, sql, drift } of cases) {
    test(mistake, async () => {
      assert.deepEqual(await driftAfter(sql), drift);
    });
  }

  test("ignores Prisma's own _prisma_migrations table", async () => {
    assert.deepEqual(
      await driftAfter(`CREATE TABLE "_prisma_migrations" ("id" VARCHAR(36) NOT NULL, "checksum" VARCHAR(64) NOT NULL,
        "finished_at" TIMESTAMPTZ, "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
        "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0,
        CONSTRAINT "_prisma_migrations_pkey" PRIMARY KEY ("id"))`),
      [],
    );
  });
});

// Types, defaults and names the real schema doesn't use yet, with the SQL `prisma migrate`
// generates for them, so the comparison is proven before a migration first needs it.
const FIXTURE_SCHEMA = `
datasource db {
  provider = "postgresql"
}

enum Role {
  ADMIN @map("admin")
  USER
  @@map("role")
}

model Everything {
  id      Int       @id @default(autoincrement())
  big     BigInt    @default(-5)
  f       Float     @default(1.5)
  dec     Decimal   @default(0)
  money   Decimal   @default("2.50") @db.Decimal(10, 2)
  s       String    @default("it's") @db.VarChar(20)
  ch      String?   @db.Char(2)
  b       Boolean   @default(true)
  j       Json      @default("{\\"b\\": 1, \\"a\\": [true]}")
  dt      DateTime  @default("2020-01-01T00:00:00Z")
  day     DateTime? @db.Date
  ts      DateTime  @default(now()) @db.Timestamp(6)
  r       Role      @default(USER)
  roles   Role[]
  tags    String[]  @default(["x", "y"])
  ints    Int[]     @default([])
  u       String    @default(dbgenerated("gen_random_uuid()")) @db.Uuid
  bytes   Bytes?
  small   Int       @db.SmallInt
  ownerA  Int?      @map("owner_a")
  ownerB  Int?      @map("owner_b")
  owner   Owner?    @relation(fields: [ownerA, ownerB], references: [a, b], onDelete: NoAction, onUpdate: Restrict)
  tagRows Tag[]

  @@unique([ownerA, ownerB])
  @@index([s(sort: Desc), b])
  @@index([tags], type: Gin)
  @@map("everything")
}

model Owner {
  a      Int
  b      Int
  things Everything[]

  @@id([a, b], map: "owner_pk")
}

model Tag {
  id           String     @id @default(cuid())
  everythingId Int
  everything   Everything @relation(fields: [everythingId], references: [id])
}

model LongName {
  id                    Int @id
  someRatherLongColumn  Int @map("some_rather_long_column")

  @@index([someRatherLongColumn])
  @@map("a_table_name_long_enough_to_need_truncating")
}
`;

const FIXTURE_SQL = `
CREATE TYPE "role" AS ENUM ('admin', 'USER');

CREATE TABLE "everything" (
    "id" SERIAL NOT NULL,
    "big" BIGINT NOT NULL DEFAULT -5,
    "f" DOUBLE PRECISION NOT NULL DEFAULT 1.5,
    "dec" DECIMAL(65,30) NOT NULL DEFAULT 0,
    "money" DECIMAL(10,2) NOT NULL DEFAULT 2.50,
    "s" VARCHAR(20) NOT NULL DEFAULT 'it''s',
    "ch" CHAR(2),
    "b" BOOLEAN NOT NULL DEFAULT true,
    "j" JSONB NOT NULL DEFAULT '{"b": 1, "a": [true]}',
    "dt" TIMESTAMP(3) NOT NULL DEFAULT '2020-01-01 00:00:00 +00:00',
    "day" DATE,
    "ts" TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "r" "role" NOT NULL DEFAULT 'USER',
    "roles" "role"[],
    "tags" TEXT[] DEFAULT ARRAY['x', 'y']::TEXT[],
    "ints" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "u" UUID NOT NULL DEFAULT gen_random_uuid(),
    "bytes" BYTEA,
    "small" SMALLINT NOT NULL,
    "owner_a" INTEGER,
    "owner_b" INTEGER,

    CONSTRAINT "everything_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "Owner" (
    "a" INTEGER NOT NULL,
    "b" INTEGER NOT NULL,

    CONSTRAINT "owner_pk" PRIMARY KEY ("a","b")
);

CREATE TABLE "Tag" (
    "id" TEXT NOT NULL,
    "everythingId" INTEGER NOT NULL,

    CONSTRAINT "Tag_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "a_table_name_long_enough_to_need_truncating" (
    "id" INTEGER NOT NULL,
    "some_rather_long_column" INTEGER NOT NULL,

    CONSTRAINT "a_table_name_long_enough_to_need_truncating_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "everything_owner_a_owner_b_key" ON "everything"("owner_a", "owner_b");
CREATE INDEX "everything_s_b_idx" ON "everything"("s" DESC, "b");
CREATE INDEX "everything_tags_idx" ON "everything" USING GIN ("tags");
CREATE INDEX "a_table_name_long_enough_to_need_truncating_some_rather_lon_idx" ON "a_table_name_long_enough_to_need_truncating"("some_rather_long_column");

ALTER TABLE "everything" ADD CONSTRAINT "everything_owner_a_owner_b_fkey" FOREIGN KEY ("owner_a", "owner_b") REFERENCES "Owner"("a", "b") ON DELETE NO ACTION ON UPDATE RESTRICT;
ALTER TABLE "Tag" ADD CONSTRAINT "Tag_everythingId_fkey" FOREIGN KEY ("everythingId") REFERENCES "everything"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
`;

describe("covers Prisma features the schema doesn't use yet", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "schema-drift-"));
  const schemaPath = path.join(dir, "schema.prisma");
  fs.writeFileSync(schemaPath, FIXTURE_SCHEMA);

  async function fixtureDrift(breakingSql = ""): Promise<string[]> {
    const db = await pglite([FIXTURE_SQL]);
    try {
      await db.exec(breakingSql);
      return await findSchemaDrift(queryOf(db), { schemaPath });
    } finally {
      await db.close();
    }
  }

  test("every scalar type, native types, enums, literal and generated defaults, composite keys", async () => {
    assert.deepEqual(await fixtureDrift(), []);
  });

  test("wrong literal defaults, enum values and referential actions", async () => {
    const drift = await fixtureDrift(`
      ALTER TABLE "everything" ALTER COLUMN "s" SET DEFAULT 'its';
      ALTER TABLE "everything" ALTER COLUMN "money" SET DEFAULT 2.51;
      ALTER TABLE "everything" ALTER COLUMN "tags" SET DEFAULT ARRAY['y', 'x'];
      ALTER TABLE "everything" ALTER COLUMN "j" SET DEFAULT '{"a": [true], "b": 2}';
      ALTER TYPE "role" ADD VALUE 'GUEST';
      ALTER TABLE "Tag" DROP CONSTRAINT "Tag_everythingId_fkey";
      ALTER TABLE "Tag" ADD CONSTRAINT "Tag_everythingId_fkey" FOREIGN KEY ("everythingId") REFERENCES "everything"("id")`);
    assert.deepEqual(drift, [
      'enum "role" has values not in schema.prisma: GUEST',
      `column "everything"."money" has default 2.51, schema.prisma expects 2.5`,
      `column "everything"."s" has default 'its'::character varying, schema.prisma expects "it's"`,
      `column "everything"."j" has default '{"a": [true], "b": 2}'::jsonb, schema.prisma expects "{\\"b\\": 1, \\"a\\": [true]}"`,
      `column "everything"."tags" has default ARRAY['y'::text, 'x'::text], schema.prisma expects ["x","y"]`,
      'foreign key "Tag_everythingId_fkey" differs: database has Tag (everythingId) references everything (id) on delete NO ACTION on update NO ACTION, schema.prisma expects Tag (everythingId) references everything (id) on delete RESTRICT on update CASCADE',
    ]);
  });

  test("refuses schema features it cannot check instead of passing silently", async () => {
    const unsupported = path.join(dir, "unsupported.prisma");
    fs.writeFileSync(unsupported, FIXTURE_SCHEMA.replace("bytes   Bytes?", 'search  Unsupported("tsvector")?'));
    const db = await pglite([FIXTURE_SQL]);
    try {
      await assert.rejects(findSchemaDrift(queryOf(db), { schemaPath: unsupported }), /Unsupported\(\.\.\.\) fields/);
    } finally {
      await db.close();
    }
  });
});
