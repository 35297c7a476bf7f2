import { test } from "node:test";
import assert from "node:assert/strict";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { withEnv } from "@/tests/support/env.ts";
import { call } from "@/tests/support/http.ts";
import { isSecureOrigin } from "@/lib/http/public-origin.ts";
import { GET as health } from "@/app/api/health/route.ts";

setUpTestDatabase();

const addressOf = async (headers: Record<string, string>) => {
  const res = await call(health, { path: "/api/health", headers });
  assert.equal(res.status, 200);
  return res.body.public_address;
};

test("a secure context is https, or http to this computer only", () => {
  for (const origin of ["https://notes.example.com", "https://192.168.1.20:8443", "http://localhost:3000", "http://app.localhost", "http://127.0.0.1:3000", "http://127.8.9.1", "http://[::1]:3000"]) {
    assert.equal(isSecureOrigin(origin), true, origin);
  }
  for (const origin of ["http://voicedraft.lan:3000", "http://192.168.1.20:3000", "http://10.0.0.2", "http://[fe80::1]", "http://localhost.example.com", "http://notes.example.com"]) {
    assert.equal(isSecureOrigin(origin), false, origin);
  }
});

test("/api/health says whether the public address is secure", async () => {
  assert.deepEqual(await addressOf({ host: "localhost:3000" }), { origin: "http://localhost:3000", secure: true });
  assert.deepEqual(await addressOf({ host: "voicedraft.lan:3000" }), { origin: "http://voicedraft.lan:3000", secure: false });
  assert.deepEqual(await addressOf({ host: "192.168.1.20:3000" }), { origin: "http://192.168.1.20:3000", secure: false });
  // A client's own X-Forwarded-Proto counts for nothing without TRUST_PROXY.
  assert.equal((await addressOf({ host: "voicedraft.lan:3000", "x-forwarded-proto": "https" })).secure, false);
});

test(
  "behind a proxy of ours, its X-Forwarded-Proto and -Host say the address",
  withEnv({ TRUST_PROXY: "true" }, async () => {
    assert.deepEqual(await addressOf({ host: "127.0.0.1:3000", "x-forwarded-host": "notes.example.com", "x-forwarded-proto": "https" }), {
      origin: "https://notes.example.com",
      secure: true,
    });
  }),
);

test(
  "NEXTAUTH_URL names the address, whatever the request's Host",
  withEnv({ NEXTAUTH_URL: "https://notes.example.com" }, async () => {
    assert.deepEqual(await addressOf({ host: "voicedraft.lan:3000" }), { origin: "https://notes.example.com", secure: true });
  }),
);
