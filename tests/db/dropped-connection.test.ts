// Issue 60, item 6: a pg client whose connection drops mid-statement is a failed, logged statement,
// never a crash. The embedded database ends a connection that holds it past maxTurnMs (as the
// developers once saw at 60 s: "it held the database for over 60000 ms"); pg then emits 'error' on
// the client, which ends the process when nobody listens.
import assert from "node:assert/strict";
import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { PrismaPg } from "@prisma/adapter-pg";
import { migrateDatabase } from "@/lib/db/migrate.ts";
import { startInMemoryDatabase } from "@/tests/support/in-memory-database.ts";

const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);
process.on("uncaughtException", onUncaught);
after(() => process.off("uncaughtException", onUncaught));

test("a migration whose connection is ended under it fails with an error, and the process stays up", async () => {
  const host = await startInMemoryDatabase({ maxTurnMs: 300 });
  try {
    const dir = await mkdtemp(path.join(tmpdir(), "vd-migrations-"));
    await mkdir(path.join(dir, "20260101000000_slow"));
    await writeFile(path.join(dir, "20260101000000_slow", "migration.sql"), "SELECT pg_sleep(1.5);\n");
    await assert.rejects(migrateDatabase(host.url, dir), /terminat|Connection/i);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(uncaught, [], "no error escaped to the process");
  } finally {
    await host.stop();
  }
});

test("the app's Prisma client: a query whose connection is ended fails; the next one works", async () => {
  const host = await startInMemoryDatabase({ maxTurnMs: 300 });
  const { PrismaClient } = await import("@/lib/db/generated/client.ts");
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: host.url, max: 2 }, { onPoolError: () => {}, onConnectionError: () => {} }) });
  try {
    await assert.rejects(prisma.$queryRawUnsafe("SELECT pg_sleep(1.5)"));
    await assert.rejects(prisma.$transaction(async (tx) => {
      await tx.$queryRawUnsafe("SELECT 1");
      await new Promise((resolve) => setTimeout(resolve, 800)); // holds the session, idle in its transaction
      await tx.$queryRawUnsafe("SELECT 2");
    }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(await prisma.$queryRawUnsafe<{ one: number }[]>("SELECT 1 AS one"), [{ one: 1 }]);
    assert.deepEqual(uncaught, [], "no error escaped to the process");
  } finally {
    await prisma.$disconnect();
    await host.stop();
  }
});
