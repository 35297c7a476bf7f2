import assert from "node:assert/strict";
import { test } from "node:test";
import { clientIp } from "@/lib/http/client-ip.ts";
import { withEnv } from "../support/env.ts";

const from = (forwardedFor?: string) => clientIp(new Headers(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}));

test("behind a trusted proxy: the address the proxy appended, not the client's claims", withEnv({ TRUST_PROXY: "true" }, async () => {
  assert.equal(from("6.6.6.6, 203.0.113.9"), "203.0.113.9");
  assert.equal(from("203.0.113.9"), "203.0.113.9");
  assert.equal(from("::ffff:203.0.113.9"), "203.0.113.9");
  assert.equal(from("not an address"), "unknown");
  assert.equal(from(), "unknown");
}));

test("without a trusted proxy: the address Next put there from the socket", withEnv({ TRUST_PROXY: "false" }, async () => {
  assert.equal(from("198.51.100.4"), "198.51.100.4");
  assert.equal(from(), "unknown");
}));

test("IPv6 addresses count by their /64", withEnv({ TRUST_PROXY: "true" }, async () => {
  assert.equal(from("2001:db8:0:1:aaaa::1"), "2001:db8:0:1::/64");
  assert.equal(from("2001:0db8:0000:0001:ffff:1:2:3"), "2001:db8:0:1::/64");
  assert.equal(from("[2001:db8::1]"), "2001:db8:0:0::/64");
}));
