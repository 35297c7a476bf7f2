// What the API's per-request savings (issue 14, item 7) keep: the unknown-key guard reads an
// address's refusals from the store at most once a second instead of on every call, yet sees
// refusals another app process counted; last_used_at is written once per key and minute, also
// when many requests arrive together.
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { before, test } from "node:test";
import { GET as listDictionary } from "@/app/api/v1/dictionary/route.ts";
import { db } from "@/lib/db/client.ts";
import { createLimiter } from "@/lib/rate-limit/store.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { withEnv } from "../support/env.ts";
import { createTestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";

const database = setUpTestDatabase();
before(() => database.ready);

const list = (key: string, ip: string) =>
  call(listDictionary, { path: "/api/v1/dictionary", headers: { authorization: `Bearer ${key}`, "x-forwarded-for": ip } });

test(
  "refusals counted by another app process (shared database store) refuse the address within a second",
  withEnv({ RATE_LIMIT_STORE: "database", RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE: "2", TRUST_PROXY: "true" }, async () => {
    const user = await createTestUser();
    assert.equal((await list(user.key, "203.0.113.40")).status, 200);
    // Another process's limiter on the same table: the address reaches the limit there.
    const elsewhere = createLimiter({ name: "unknown-key", points: 2, durationSeconds: 60 }, "database");
    await elsewhere.penalty("203.0.113.40", 2);
    await sleep(1100);
    const refused = await list(user.key, "203.0.113.40");
    assert.equal(refused.status, 429, "a good key from an address over the limit is refused, so the answer reveals nothing");
    assert.equal(refused.body.error.code, "rate_limited");
    assert.equal((await list(user.key, "203.0.113.41")).status, 200, "other addresses go on");
  }),
);

test("32 requests at once with a fresh key record its use once", withEnv({ LOG_LEVEL: "silent" }, async () => {
  const user = await createTestUser();
  const prisma = await db();
  // Count the writes to api_keys.last_used_at with a trigger on this test's own database.
  await prisma.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS key_use_writes (key_id text, at timestamptz DEFAULT now())`);
  await prisma.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION count_key_use() RETURNS trigger AS $$
    BEGIN
      IF NEW.last_used_at IS DISTINCT FROM OLD.last_used_at THEN INSERT INTO key_use_writes (key_id) VALUES (NEW.id); END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS count_key_use ON api_keys`);
  await prisma.$executeRawUnsafe(`CREATE TRIGGER count_key_use AFTER UPDATE ON api_keys FOR EACH ROW EXECUTE FUNCTION count_key_use()`);
  const answers = await Promise.all(Array.from({ length: 32 }, () => list(user.key, "203.0.113.50")));
  for (const res of answers) assert.equal(res.status, 200);
  let writes: { key_id: string }[] = [];
  for (let i = 0; i < 50 && !writes.length; i++) {
    await sleep(100); // the write is not awaited by the request
    writes = await prisma.$queryRawUnsafe(`SELECT key_id FROM key_use_writes`);
  }
  await sleep(300);
  writes = await prisma.$queryRawUnsafe(`SELECT key_id FROM key_use_writes`);
  assert.equal(writes.length, 1, `last_used_at was written ${writes.length} times`);
  const [key] = await prisma.apiKey.findMany({ where: { userId: user.id } });
  assert.ok(key.lastUsedAt, "the use was recorded");
}));
