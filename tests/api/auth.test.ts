import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { db } from "@/lib/db/client.ts";
import { createApiKey } from "@/lib/api-keys/create-api-key.ts";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key.ts";
import { listApiKeys } from "@/lib/api-keys/list-api-keys.ts";
import { hashApiKey } from "@/lib/api-keys/key-format.ts";
import { GET as list } from "@/app/api/v1/dictionary/route.ts";
import { POST as add } from "@/app/api/v1/dictionary/add/route.ts";
import { DELETE as remove } from "@/app/api/v1/dictionary/delete/route.ts";

setUpTestDatabase();

const ROUTES = [
  { name: "GET /dictionary", handler: list, method: "GET", path: "/api/v1/dictionary", scope: "dictionary:read" },
  { name: "POST /dictionary/add", handler: add, method: "POST", path: "/api/v1/dictionary/add", scope: "dictionary:write", json: { misspelling: "a", correct_spelling: "b" } },
  { name: "DELETE /dictionary/delete", handler: remove, method: "DELETE", path: "/api/v1/dictionary/delete?misspelling=a", scope: "dictionary:write" },
] as const;

async function expect401(res: Awaited<ReturnType<typeof call>>, message: RegExp) {
  assert.equal(res.status, 401);
  assert.equal(res.body.error.code, "unauthorized");
  assert.match(res.body.error.message, message);
  assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
  assert.ok(res.headers.get("x-request-id"));
}

describe("401 and 403 on every dictionary route", () => {
  for (const route of ROUTES) {
    test(route.name, async () => {
      const user = await createTestUser();
      const send = (headers: Record<string, string>) =>
        call(route.handler, { method: route.method, path: route.path, headers, json: "json" in route ? route.json : undefined });

      await expect401(await send({}), /Authorization: Bearer/);
      await expect401(await send({ authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }), /Bearer <key>/);
      await expect401(await send({ authorization: "Bearer" }), /Bearer <key>/);
      await expect401(await send({ authorization: "Bearer not-a-key" }), /vd_/);
      await expect401(await send({ authorization: `Bearer vd_${"A".repeat(43)}` }), /not known/);

      const revoked = await createApiKey({ userId: user.id, input: { name: "old" } });
      await revokeApiKey({ userId: user.id, input: { id: revoked.apiKey.id } });
      await expect401(await send({ authorization: `Bearer ${revoked.key}` }), /revoked/);

      const expiring = await createApiKey({ userId: user.id, input: { name: "soon", expiresAt: new Date(Date.now() + 60_000) } });
      const prisma = await db();
      await prisma.apiKey.update({ where: { id: expiring.apiKey.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      await expect401(await send({ authorization: `Bearer ${expiring.key}` }), /expired/);

      const otherScopes = ["transcribe", "content:read", "content:write", route.scope === "dictionary:read" ? "dictionary:write" : "dictionary:read"] as const;
      const limited = await createApiKey({ userId: user.id, input: { name: "limited", scopes: [...otherScopes] } });
      const forbidden = await send({ authorization: `Bearer ${limited.key}` });
      assert.equal(forbidden.status, 403);
      assert.equal(forbidden.body.error.code, "insufficient_scope");
      assert.match(forbidden.body.error.message, new RegExp(route.scope));

      const allowed = await send({ authorization: `bearer ${user.key}` });
      assert.ok(allowed.status < 500 && allowed.status !== 401 && allowed.status !== 403, `got ${allowed.status}`);
    });
  }
});

describe("API keys", () => {
  test("are stored only as a hash, with a display prefix and last-used time", async () => {
    const user = await createTestUser();
    const prisma = await db();
    const rows = await prisma.apiKey.findMany({ where: { userId: user.id } });
    assert.equal(rows.length, 1);
    assert.equal(rows[0].hash, hashApiKey(user.key));
    assert.ok(!JSON.stringify(rows).includes(user.key.slice(3)), "the secret is not stored");
    assert.equal(rows[0].prefix, user.key.slice(0, 9));
    assert.match(user.key, /^vd_[0-9A-Za-z]{43}$/);
    assert.equal(rows[0].lastUsedAt, null);

    await call(list, { path: "/api/v1/dictionary", key: user.key });
    for (let i = 0; i < 50; i++) {
      const [key] = await listApiKeys({ userId: user.id });
      if (key.lastUsedAt) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail("lastUsedAt was not recorded");
  });

  test("two keys are never alike, and a user cannot revoke another's key", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    assert.notEqual(alice.key, bob.key);
    const [bobsKey] = await listApiKeys({ userId: bob.id });
    await assert.rejects(revokeApiKey({ userId: alice.id, input: { id: bobsKey.id } }), /not found/);
    const res = await call(list, { path: "/api/v1/dictionary", key: bob.key });
    assert.equal(res.status, 200);
  });

  test("a key in use stops working at once when revoked here, and within half a second when revoked elsewhere", async () => {
    const user = await createTestUser();
    const send = (key: string) => call(list, { path: "/api/v1/dictionary", key });
    const here = await createApiKey({ userId: user.id, input: { name: "here" } });
    assert.equal((await send(here.key)).status, 200);
    await revokeApiKey({ userId: user.id, input: { id: here.apiKey.id } });
    await expect401(await send(here.key), /revoked/);

    // Another process (the admin CLI, a second app server) changes the row behind this one's back.
    const elsewhere = await createApiKey({ userId: user.id, input: { name: "elsewhere" } });
    assert.equal((await send(elsewhere.key)).status, 200);
    const prisma = await db();
    await prisma.apiKey.update({ where: { id: elsewhere.apiKey.id }, data: { revokedAt: new Date() } });
    await new Promise((r) => setTimeout(r, 600));
    await expect401(await send(elsewhere.key), /revoked/);
  });

  test("expiry must be in the future", async () => {
    const user = await createTestUser();
    await assert.rejects(
      createApiKey({ userId: user.id, input: { name: "past", expiresAt: new Date(Date.now() - 1000) } }),
      /future/,
    );
  });
});
