import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { resetEnvCache } from "@/lib/env.ts";
import { assertSameOrigin } from "@/lib/auth/same-origin.ts";
import { isServedOverHttps } from "@/lib/http/public-origin.ts";

// The CSRF check of cookie-authenticated writes when the browser sends Origin but no Sec-Fetch-Site.
const SETTINGS = ["TRUST_PROXY", "NEXTAUTH_URL"] as const;
const saved = Object.fromEntries(SETTINGS.map((k) => [k, process.env[k]]));

function settings(vars: Partial<Record<(typeof SETTINGS)[number], string>>) {
  for (const k of SETTINGS) delete process.env[k];
  Object.assign(process.env, vars);
  resetEnvCache();
}

afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
});

const write = (headers: Record<string, string>) =>
  new Request("http://localhost:3000/api/v1/dictionary/add", { method: "POST", headers: { host: "localhost:3000", ...headers } });

const accepts = (req: Request) => assert.doesNotThrow(() => assertSameOrigin(req));
const refuses = (req: Request) => assert.throws(() => assertSameOrigin(req), { code: "cross_site_request" });

// An attacker's page cannot set X-Forwarded-Host, but a script or a misconfigured proxy can; the
// check must not take the site's origin from headers anyone may send.
const forgedByEvil = { origin: "https://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

describe("the same-origin check", () => {
  test("ignores X-Forwarded-Host and -Proto unless TRUST_PROXY is set", () => {
    settings({});
    refuses(write(forgedByEvil));
    accepts(write({ origin: "http://localhost:3000", "x-forwarded-host": "evil.example" }));
    assert.equal(isServedOverHttps(write({ "x-forwarded-proto": "https" })), false);
  });

  test("trusts them behind a proxy of ours (TRUST_PROXY=true)", () => {
    settings({ TRUST_PROXY: "true" });
    accepts(write({ origin: "https://app.example", "x-forwarded-host": "app.example", "x-forwarded-proto": "https" }));
    refuses(write({ origin: "http://localhost:3000", "x-forwarded-host": "app.example", "x-forwarded-proto": "https" }));
    assert.equal(isServedOverHttps(write({ "x-forwarded-proto": "https" })), true);
  });

  test("compares with NEXTAUTH_URL when it is set, whatever the headers say", () => {
    settings({ NEXTAUTH_URL: "https://voice.example/", TRUST_PROXY: "true" });
    accepts(write({ origin: "https://voice.example" }));
    refuses(write(forgedByEvil));
    refuses(write({ origin: "http://localhost:3000" }));
    assert.equal(isServedOverHttps(write({})), true);
  });
});
