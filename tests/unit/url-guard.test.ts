import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "@/lib/http/errors.ts";
import { assertWebhookUrlAllowed, refusedAddress, resolveWebhookAddresses, useResolver as answerNamesWith, WebhookAddressError } from "@/lib/webhooks/url-guard.ts";
import { withEnv } from "../support/env.ts";

// The webhook address check on names written as fully qualified (a trailing dot): DNS reads
// `localhost.` as `localhost`, so it must be refused the same (issue 44: it passed, since the
// system's resolver does not answer `localhost.` and an unresolvable name is accepted when saved).

const noAnswer = () => answerNamesWith(async () => Promise.reject(new Error("ENOTFOUND")));

async function refusedWhenSaved(url: string): Promise<string> {
  const err = await assertWebhookUrlAllowed(url).then(() => null, (e: unknown) => e);
  assert.ok(err instanceof ApiError, `${url} was accepted`);
  assert.equal(err.code, "webhook_url_not_allowed");
  return err.message;
}

test("localhost with trailing dots is refused like localhost, even when the name does not resolve", withEnv({ WEBHOOKS_ALLOW_PRIVATE: "false" }, async () => {
  const restore = noAnswer();
  try {
    for (const url of ["http://localhost./h", "http://LOCALHOST./h", "http://localhost../h", "https://api.localhost./hook"]) {
      assert.match(await refusedWhenSaved(url), /this machine/, url);
    }
  } finally {
    restore();
  }
}));

test("cloud metadata names with a trailing dot are refused", withEnv({ WEBHOOKS_ALLOW_PRIVATE: "true" }, async () => {
  const restore = noAnswer();
  try {
    assert.match(await refusedWhenSaved("http://metadata.google.internal./computeMetadata/v1/"), /metadata/);
  } finally {
    restore();
  }
}));

test("a trailing-dot name is resolved as the name, and its addresses are checked", withEnv({ WEBHOOKS_ALLOW_PRIVATE: "false" }, async () => {
  const asked: string[] = [];
  const restore = answerNamesWith(async (host) => (asked.push(host), host === "hooks.example.com" ? ["10.0.0.7"] : ["93.184.215.14"]));
  try {
    await assert.rejects(resolveWebhookAddresses("https://hooks.example.com./in"), WebhookAddressError);
    assert.deepEqual(await resolveWebhookAddresses("https://public.example.org./in"), ["93.184.215.14"]);
    assert.deepEqual(asked, ["hooks.example.com", "public.example.org"]);
  } finally {
    restore();
  }
}));

test("with WEBHOOKS_ALLOW_PRIVATE=true, localhost. is allowed as localhost is", withEnv({ WEBHOOKS_ALLOW_PRIVATE: "true" }, async () => {
  const restore = answerNamesWith(async () => ["127.0.0.1"]);
  try {
    await assertWebhookUrlAllowed("http://localhost./h");
    assert.deepEqual(await resolveWebhookAddresses("http://localhost./h"), ["127.0.0.1"]);
  } finally {
    restore();
  }
}));

// IPv6 forms that carry an IPv4 address inside (issue 66): ::/96 had no range in ipaddr.js and read
// as public unicast; each form is refused, with or without WEBHOOKS_ALLOW_PRIVATE.
const EMBEDDING = ["::7f00:1", "::a00:1", "::127.0.0.1", "::8.8.8.8", "0:0:0:0:0:0:a9fe:a9fe", "64:ff9b::a00:1", "64:ff9b::7f00:1", "2002:a00:1::1", "2002:7f00:1::", "2001:0:4136:e378:8000:63bf:3fff:fdd2"];

test("IPv4-compatible, NAT64, 6to4 and Teredo addresses are refused whatever the setting", () => {
  for (const allowPrivate of [false, true]) {
    for (const address of EMBEDDING) assert.match(refusedAddress(address, allowPrivate) ?? "accepted", /an IPv4 address inside/, `${address} (allowPrivate ${allowPrivate})`);
  }
  assert.match(refusedAddress("::ffff:7f00:1", false) ?? "accepted", /loopback/, "IPv4-mapped is checked as the IPv4 address inside");
  assert.match(refusedAddress("::ffff:10.0.0.1", false) ?? "accepted", /private network/);
  assert.equal(refusedAddress("::ffff:93.184.216.34", false), null, "a mapped public address is that public address");
  assert.equal(refusedAddress("2606:4700::1111", false), null);
  assert.match(refusedAddress("::1", false) ?? "accepted", /loopback/, "::1 and :: keep their own ranges");
  assert.match(refusedAddress("::", true) ?? "accepted", /unspecified/);
});

test("as a URL's host, or as what a name resolves to, they are refused", withEnv({ WEBHOOKS_ALLOW_PRIVATE: "true" }, async () => {
  const restore = answerNamesWith(async () => ["2606:4700::1111", "::7f00:1"]);
  try {
    for (const url of ["http://[::7f00:1]/h", "http://[::127.0.0.1]/h", "http://[::a00:1]/h", "http://[64:ff9b::a00:1]/h", "http://[2002:a00:1::1]/h", "http://hooks.example.com/h"]) {
      assert.match(await refusedWhenSaved(url), /an IPv4 address inside/, url);
    }
  } finally {
    restore();
  }
}));
