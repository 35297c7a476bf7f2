import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import type { NextAuthOptions } from "next-auth";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { withEnv } from "@/tests/support/env.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { db } from "@/lib/db/client.ts";
import { authOptions } from "@/lib/auth/auth-options.ts";
import { createSession, findSession } from "@/lib/auth/sessions.ts";
import { POST as makeCode } from "@/app/api/v1/pairing-codes/route.ts";
import { GET as listDevices } from "@/app/api/v1/sessions/route.ts";
import { DELETE as signOutDevice } from "@/app/api/v1/sessions/[id]/route.ts";
import { GET as listDictionary } from "@/app/api/v1/dictionary/route.ts";

setUpTestDatabase();

// next-auth's own request handler, as its App Router route calls it (that route reads next/headers,
// which exist only inside Next's request scope). The package exports no ./core: loaded by its file.
type AuthAnswer = { status?: number; body?: unknown; redirect?: string; cookies?: { name: string; value: string }[] };
type AuthRequest = { action: string; providerId?: string; method: string; headers: Record<string, string>; cookies: Record<string, string>; query: Record<string, string>; body?: Record<string, string> };
const { AuthHandler } = createRequire(import.meta.url)(path.resolve("node_modules/next-auth/core/index.js")) as {
  AuthHandler: (params: { req: AuthRequest; options: NextAuthOptions }) => Promise<AuthAnswer>;
};

const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const cookieOf = (token: string) => `next-auth.session-token=${token}`;
let address = 10;

/** A computer signed in to `userId` asks for a pairing code, at `host` (a secure address unless said). */
async function codeFor(userId: string, host = "localhost:3000") {
  const { sessionToken } = await createSession({ userId });
  return call(makeCode, { method: "POST", path: "/api/v1/pairing-codes", headers: { cookie: cookieOf(sessionToken), "sec-fetch-site": "same-origin", host } });
}

/**
 * A phone signs in with `code` through next-auth itself (its CSRF round, then the pairing
 * provider's callback), as /api/auth/callback/pairing does: the session token it got, or the error.
 */
async function pairPhone(code: string, { host = "localhost:3000", ip = `198.51.100.${address++}` } = {}): Promise<{ sessionToken?: string; error?: string }> {
  const options = await authOptions();
  const headers = { host, "user-agent": ANDROID, "x-forwarded-for": ip };
  const csrf = await AuthHandler({ req: { action: "csrf", method: "GET", headers, cookies: {}, query: {} }, options });
  const csrfCookie = csrf.cookies?.find((c) => c.name.endsWith("next-auth.csrf-token"));
  assert.ok(csrfCookie);
  const answer = await AuthHandler({
    req: {
      action: "callback",
      providerId: "pairing",
      method: "POST",
      headers,
      cookies: { [csrfCookie.name]: csrfCookie.value },
      query: {},
      body: { code, csrfToken: (csrf.body as { csrfToken: string }).csrfToken, json: "true" },
    },
    options,
  });
  const session = answer.cookies?.find((c) => c.name.endsWith("next-auth.session-token") && c.value);
  if (session) return { sessionToken: session.value };
  const redirect = answer.redirect ?? "";
  return { error: new URL(redirect, "http://x").searchParams.get("error") ?? `status ${answer.status}` };
}

test("a pairing code signs a phone in once, with a session of its own for the account that made it", async () => {
  const user = await createTestUser();
  const made = await codeFor(user.id);
  assert.equal(made.status, 201);
  assert.match(made.body.code, /^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
  assert.equal(made.body.url, `http://localhost:3000/pair#${made.body.code}`);
  const minutes = (Date.parse(made.body.expires_at) - Date.now()) / 60_000;
  assert.ok(minutes > 4.9 && minutes <= 5, `expires in ${minutes} min`);

  // Typed on the phone in lower case, without the dash: the same code.
  const phone = await pairPhone(made.body.code.toLowerCase().replace("-", ""));
  assert.ok(phone.sessionToken, `signed in (${phone.error})`);
  const session = await findSession(phone.sessionToken);
  assert.equal(session?.userId, user.id);
  const reads = await call(listDictionary, { path: "/api/v1/dictionary", headers: { cookie: cookieOf(phone.sessionToken!) } });
  assert.equal(reads.status, 200);

  // Listed under the account's devices, with what it is; the computer's own session is `current`.
  const devices = await call(listDevices, { path: "/api/v1/sessions", headers: { cookie: cookieOf(phone.sessionToken!) } });
  assert.equal(devices.status, 200);
  const paired = devices.body.sessions.find((s: { current: boolean }) => s.current);
  assert.deepEqual({ device: paired.device, paired: paired.paired }, { device: "Chrome on Android", paired: true });
  assert.equal(devices.body.sessions.length, 2);

  // Used: a second phone gets nothing.
  assert.deepEqual(await pairPhone(made.body.code), { error: "CredentialsSignin" });
  const prisma = await db();
  const rows = await prisma.pairingCode.findMany({ where: { userId: user.id } });
  assert.ok(!JSON.stringify(rows).includes(made.body.code.replace("-", "")), "only the code's hash is kept");
});

test("a pairing code expires after 5 minutes", async () => {
  const user = await createTestUser();
  const made = await codeFor(user.id);
  const prisma = await db();
  await prisma.pairingCode.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1) } });
  assert.deepEqual(await pairPhone(made.body.code), { error: "CredentialsSignin" });
});

test("a pairing code is refused at a plain http address that is not this computer", async () => {
  const user = await createTestUser();
  const refused = await codeFor(user.id, "voicedraft.lan:3000");
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, "secure_address_required");
  // A code made at the secure address, tried at the plain one: refused, and still unused.
  const made = await codeFor(user.id);
  const phone = await pairPhone(made.body.code, { host: "192.168.1.20:3000" });
  assert.match(phone.error ?? "", /secure \(https\) address/);
  assert.ok((await pairPhone(made.body.code)).sessionToken, "still good at the secure address");
});

test(
  "behind a proxy of ours that says https, the plain http hop to the app is fine",
  withEnv({ TRUST_PROXY: "true" }, async () => {
    const user = await createTestUser();
    const { sessionToken } = await createSession({ userId: user.id });
    const made = await call(makeCode, {
      method: "POST",
      path: "/api/v1/pairing-codes",
      headers: { cookie: cookieOf(sessionToken), "sec-fetch-site": "same-origin", host: "127.0.0.1:3000", "x-forwarded-host": "notes.example.com", "x-forwarded-proto": "https" },
    });
    assert.equal(made.status, 201);
    assert.equal(made.body.url, `https://notes.example.com/pair#${made.body.code}`);
  }),
);

test("a pairing code signs in only the account that made it, and only from the app", async () => {
  const alice = await createTestUser();
  const bob = await createTestUser();
  const aliceCode = await codeFor(alice.id);
  const bobCode = await codeFor(bob.id);
  const aliceSession = await findSession((await pairPhone(aliceCode.body.code)).sessionToken);
  const bobSession = await findSession((await pairPhone(bobCode.body.code)).sessionToken);
  assert.equal(aliceSession?.userId, alice.id);
  assert.equal(bobSession?.userId, bob.id);
  // Bob cannot see nor sign out Alice's devices (404, as for any id not his).
  const aliceDevices = await call(listDevices, { path: "/api/v1/sessions", headers: { cookie: cookieOf(aliceSession!.sessionToken) } });
  const bobDevices = await call(listDevices, { path: "/api/v1/sessions", headers: { cookie: cookieOf(bobSession!.sessionToken) } });
  const aliceIds = aliceDevices.body.sessions.map((s: { id: string }) => s.id);
  assert.ok(!bobDevices.body.sessions.some((s: { id: string }) => aliceIds.includes(s.id)));
  const foreign = await call(signOutDevice, {
    method: "DELETE",
    path: `/api/v1/sessions/${aliceIds[0]}`,
    params: { id: aliceIds[0] },
    headers: { cookie: cookieOf(bobSession!.sessionToken), "sec-fetch-site": "same-origin" },
  });
  assert.equal(foreign.status, 404);
  // An API key cannot make codes (a leaked key must not sign devices in) nor list devices.
  const withKey = await call(makeCode, { method: "POST", path: "/api/v1/pairing-codes", key: alice.key });
  assert.equal(withKey.status, 403);
  assert.equal(withKey.body.error.code, "session_required");
  assert.equal((await call(listDevices, { path: "/api/v1/sessions", key: alice.key })).body.error.code, "session_required");
});

test("signing a device out ends its session at once", async () => {
  const user = await createTestUser();
  const computer = await createSession({ userId: user.id });
  const phone = await findSession((await pairPhone((await codeFor(user.id)).body.code)).sessionToken);
  const devices = await call(listDevices, { path: "/api/v1/sessions", headers: { cookie: cookieOf(computer.sessionToken) } });
  const phoneRow = devices.body.sessions.find((s: { paired: boolean }) => s.paired);
  const out = await call(signOutDevice, {
    method: "DELETE",
    path: `/api/v1/sessions/${phoneRow.id}`,
    params: { id: phoneRow.id },
    headers: { cookie: cookieOf(computer.sessionToken), "sec-fetch-site": "same-origin" },
  });
  assert.equal(out.status, 204);
  assert.equal(await findSession(phone!.sessionToken), null);
  const after = await call(listDictionary, { path: "/api/v1/dictionary", headers: { cookie: cookieOf(phone!.sessionToken) } });
  assert.equal(after.status, 401);
});

test(
  "pairing is rate limited: codes an account makes, and codes an address tries",
  withEnv({ RATE_LIMIT_PAIRING_PER_HOUR: "3" }, async () => {
    const user = await createTestUser();
    for (let i = 0; i < 3; i++) assert.equal((await codeFor(user.id)).status, 201);
    const limited = await codeFor(user.id);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, "rate_limited");
    assert.ok(Number(limited.headers.get("retry-after")) > 0);

    const other = await createTestUser();
    const good = await codeFor(other.id);
    const guesser = "203.0.113.7";
    for (let i = 0; i < 3; i++) assert.deepEqual(await pairPhone("ZZZZ-ZZZZ", { ip: guesser }), { error: "CredentialsSignin" });
    // The fourth try from that address is refused even with the right code, which stays good elsewhere.
    assert.match((await pairPhone(good.body.code, { ip: guesser })).error ?? "", /Too many pairing codes/);
    assert.ok((await pairPhone(good.body.code, { ip: "203.0.113.8" })).sessionToken);
  }),
);
