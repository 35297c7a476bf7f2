import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { resetEnvCache } from "@/lib/env.ts";
import { closeDb, db } from "@/lib/db/client.ts";
import type { EmbeddedHost } from "@/lib/db/embedded.ts";
import { startInMemoryDatabase } from "@/tests/support/in-memory-database.ts";
import { migrateDatabase } from "@/lib/db/migrate.ts";
import { checkHealth } from "@/lib/health/check-health.ts";

const ADDRESS = { origin: "http://localhost:3000", secure: true };
let host: EmbeddedHost;

before(async () => {
  // The idle guard is off here (60 s) so the transaction below holds the database while we look.
  host = await startInMemoryDatabase({ idleInTransactionMs: 60_000, maxTurnMs: 60_000 });
  await migrateDatabase(host.url);
  process.env.DATABASE_URL = host.url;
  process.env.HEALTH_DB_TIMEOUT_SECONDS = "1.5";
  process.env.LOG_LEVEL = "silent";
  resetEnvCache();
  await (await db()).$queryRaw`SELECT 1`; // the pool's first connection is not what is measured
});

after(async () => {
  await closeDb();
  await host.stop();
});

test("health is degraded while requests wait on the database, and ok again after", { timeout: 30_000 }, async () => {
  assert.equal((await checkHealth(ADDRESS)).status, "ok");
  const holder = new pg.Client(host.url);
  await holder.connect();
  await holder.query("BEGIN");
  await holder.query("SELECT 1");
  const stalled = await checkHealth(ADDRESS);
  assert.equal(stalled.status, "degraded");
  assert.equal(stalled.database.reachable, false);
  await holder.query("COMMIT");
  await holder.end();
  assert.equal((await checkHealth(ADDRESS)).status, "ok");
});
