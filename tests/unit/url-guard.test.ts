import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "@/lib/http/errors.ts";
import { assertWebhookUrlAllowed, resolveWebhookAddresses, useResolver as answerNamesWith, WebhookAddressError } from "@/lib/webhooks/url-guard.ts";
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
