import { test } from "node:test";
import assert from "node:assert/strict";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { db } from "@/lib/db/client.ts";
import { createSession, deleteSession, hashSessionToken } from "@/lib/auth/sessions.ts";
import { verifyCredentials } from "@/lib/auth/verify-credentials.ts";
import { GET as list } from "@/app/api/v1/dictionary/route.ts";
import { POST as add } from "@/app/api/v1/dictionary/add/route.ts";

setUpTestDatabase();

const ENTRY = { misspelling: "jay eff kay", correct_spelling: "JFK" };
const cookie = (token: string) => `other=1; next-auth.session-token=${token}`;

test("a browser session reads and writes the user's own data", async () => {
  const user = await createTestUser();
  const { sessionToken } = await createSession({ userId: user.id });
  const added = await call(add, {
    method: "POST",
    path: "/api/v1/dictionary/add",
    headers: { cookie: cookie(sessionToken), "sec-fetch-site": "same-origin" },
    json: ENTRY,
  });
  assert.equal(added.status, 201);
  const listed = await call(list, { path: "/api/v1/dictionary", headers: { cookie: cookie(sessionToken) } });
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.entries.map((e: { misspelling: string }) => e.misspelling), [ENTRY.misspelling]);

  const other = await createTestUser();
  const otherSession = await createSession({ userId: other.id });
  const foreign = await call(list, { path: "/api/v1/dictionary", headers: { cookie: cookie(otherSession.sessionToken) } });
  assert.deepEqual(foreign.body.entries, []);
});

test("cookie-authenticated writes from another site are refused with 403 cross_site_request", async () => {
  const user = await createTestUser();
  const { sessionToken } = await createSession({ userId: user.id });
  const attempts: Record<string, string>[] = [
    { "sec-fetch-site": "cross-site" },
    { "sec-fetch-site": "same-site" },
    { origin: "https://evil.example" },
    {},
  ];
  for (const headers of attempts) {
    const res = await call(add, { method: "POST", path: "/api/v1/dictionary/add", headers: { cookie: cookie(sessionToken), ...headers }, json: ENTRY });
    assert.equal(res.status, 403, JSON.stringify(headers));
    assert.equal(res.body.error.code, "cross_site_request");
  }
  const sameOrigin = await call(add, {
    method: "POST",
    path: "/api/v1/dictionary/add",
    headers: { cookie: cookie(sessionToken), origin: "http://localhost" },
    json: ENTRY,
  });
  assert.equal(sameOrigin.status, 201);
  // A Bearer key is not a cookie: no origin check.
  const withKey = await call(add, { method: "POST", path: "/api/v1/dictionary/add", key: user.key, headers: { origin: "https://evil.example" }, json: ENTRY });
  assert.equal(withKey.status, 200);
});

test("signed-out, expired and unknown sessions are 401", async () => {
  const user = await createTestUser();
  const session = await createSession({ userId: user.id });
  await deleteSession({ sessionToken: session.sessionToken });
  const expired = await createSession({ userId: user.id });
  const prisma = await db();
  await prisma.session.update({ where: { tokenHash: hashSessionToken(expired.sessionToken) }, data: { expires: new Date(Date.now() - 1000) } });
  for (const token of [session.sessionToken, expired.sessionToken, "not-a-session"]) {
    const res = await call(list, { path: "/api/v1/dictionary", headers: { cookie: cookie(token) } });
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, "unauthorized");
  }
});

test("credentials: the right password signs in; a wrong one or an unknown email does not", async () => {
  const user = await createTestUser();
  assert.equal((await verifyCredentials({ email: user.email.toUpperCase(), password: "correct horse battery staple" }))?.id, user.id);
  assert.equal(await verifyCredentials({ email: user.email, password: "wrong password!" }), null);
  assert.equal(await verifyCredentials({ email: "nobody@example.test", password: "correct horse battery staple" }), null);
  assert.equal(await verifyCredentials({ email: user.email }), null);
});
