// Benchmark: what the rate limiter adds to each API request (one consume()), on each store: in
// memory (the embedded default), the database through Prisma on the embedded PGlite, and on
// PostgreSQL when one answers (TEST_DATABASE_URL or 127.0.0.1:5432). On each database also the
// per-key API limit as it runs (BatchedLimit.take(): counted in the process, sent about once a
// second), which is what a keyed API request pays.
// Run: npm run bench:ratelimit [-- --requests 2000]
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";

const { values } = parseArgs({ options: { requests: { type: "string", default: "2000" } } });
const REQUESTS = Number(values.requests);
process.env.LOG_LEVEL = "silent";
const POSTGRES = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

const { startInMemoryDatabase } = await import("@/tests/support/in-memory-database.ts");
const { migrateDatabase } = await import("@/lib/db/migrate.ts");
const { closeDb } = await import("@/lib/db/client.ts");
const { resetEnvCache } = await import("@/lib/env.ts");
const { createLimiter } = await import("@/lib/rate-limit/store.ts");
const { BatchedLimit } = await import("@/lib/rate-limit/batched-limit.ts");

type Store = "memory" | "database";

/** µs per consume(), one at a time (latency) and 16 in flight (throughput). */
async function measure(store: Store, batched = false): Promise<{ serial: number; parallel: number }> {
  const counter = createLimiter({ name: `bench-${randomBytes(4).toString("hex")}`, points: 1e9, durationSeconds: 60 }, store);
  const batch = new BatchedLimit(counter, 1e9);
  const consume = batched ? (key: string) => batch.take(key) : (key: string) => counter.consume(key);
  const keys = Array.from({ length: 50 }, (_, i) => `key-${i}`);
  for (const key of keys) await consume(key); // warm-up
  let start = performance.now();
  for (let i = 0; i < REQUESTS; i++) await consume(keys[i % keys.length]);
  const serial = ((performance.now() - start) * 1000) / REQUESTS;
  start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < REQUESTS) await consume(keys[next++ % keys.length]);
    }),
  );
  const parallel = ((performance.now() - start) * 1000) / REQUESTS;
  return { serial, parallel };
}

function report(name: string, { serial, parallel }: { serial: number; parallel: number }) {
  console.log(`${name.padEnd(34)} ${serial.toFixed(1).padStart(8)} µs/request one at a time   ${parallel.toFixed(1).padStart(8)} µs/request with 16 in flight`);
}

async function onDatabase(url: string, label: string): Promise<void> {
  await migrateDatabase(url);
  process.env.DATABASE_URL = url;
  resetEnvCache();
  try {
    report(`database store on ${label}`, await measure("database"));
    report(`per-key API limit on ${label}`, await measure("database", true));
  } finally {
    await closeDb();
  }
}

console.log(`rate limiter: ${REQUESTS} consume() calls per store`);
report("memory store", await measure("memory"));

const embedded = await startInMemoryDatabase();
await onDatabase(embedded.url, "embedded PGlite").finally(() => embedded.stop());

const name = `vd_bench_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: POSTGRES, connectionTimeoutMillis: 2000 });
try {
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
} catch {
  console.log("PostgreSQL: not reachable, skipped");
  process.exit(0);
}
const url = new URL(POSTGRES);
url.pathname = `/${name}`;
try {
  await onDatabase(url.toString(), "PostgreSQL");
} finally {
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
}
