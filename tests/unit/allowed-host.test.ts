import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { resetEnvCache } from "@/lib/env.ts";
import { isAllowedHost } from "@/lib/http/allowed-host.ts";

// The Host check of /mcp against DNS rebinding: names another site's page cannot send are let
// through (loopback names, IP addresses, NEXTAUTH_URL's host); any other name is refused.
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

const sentTo = (host: string, headers: Record<string, string> = {}) => new Request("http://localhost:3000/mcp", { method: "POST", headers: { host, ...headers } });

describe("the Host a request was sent to", () => {
  test("loopback names and IP addresses pass; another name does not", () => {
    settings({});
    for (const host of ["localhost:3000", "localhost", "app.localhost:3000", "127.0.0.1:3000", "[::1]:3000", "192.168.1.20:3000", "LOCALHOST:3000"]) assert.equal(isAllowedHost(sentTo(host)), true, host);
    for (const host of ["evil.example.com", "evil.example.com:3000", "localhost.evil.example", "127.0.0.1.nip.io:3000", "voicedraft.example"]) assert.equal(isAllowedHost(sentTo(host)), false, host);
  });

  test("the public URL's host passes once NEXTAUTH_URL names it", () => {
    settings({ NEXTAUTH_URL: "https://notes.example.org" });
    assert.equal(isAllowedHost(sentTo("notes.example.org")), true);
    assert.equal(isAllowedHost(sentTo("Notes.Example.org:443")), true);
    assert.equal(isAllowedHost(sentTo("evil.example.com")), false);
  });

  test("X-Forwarded-Host counts only behind a proxy of ours", () => {
    settings({ NEXTAUTH_URL: "https://notes.example.org" });
    assert.equal(isAllowedHost(sentTo("127.0.0.1:3000", { "x-forwarded-host": "evil.example.com" })), true, "ignored: the Host is what counts");
    settings({ NEXTAUTH_URL: "https://notes.example.org", TRUST_PROXY: "true" });
    assert.equal(isAllowedHost(sentTo("127.0.0.1:3000", { "x-forwarded-host": "evil.example.com" })), false);
    assert.equal(isAllowedHost(sentTo("127.0.0.1:3000", { "x-forwarded-host": "notes.example.org" })), true);
  });
});
