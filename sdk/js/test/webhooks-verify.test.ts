// verifyWebhook against the Standard Webhooks test vectors, and against what the reference
// library (standardwebhooks, the signer of the service) signs.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { verifyWebhook, WebhookVerificationError } from "../dist/index.js";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';
const SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
const at = (seconds: number) => ({ now: new Date(seconds * 1000) });
const headers = (signature = SIGNATURE, timestamp = String(TIMESTAMP)) => ({ "webhook-id": MSG_ID, "webhook-timestamp": timestamp, "webhook-signature": signature });

describe("verifyWebhook (Standard Webhooks test vectors)", () => {
  test("the vector verifies, as text or bytes, from a plain object or Headers, among other signatures", async () => {
    assert.deepEqual(await verifyWebhook(BODY, headers(), SECRET, at(TIMESTAMP)), { test: 2432232314 });
    assert.deepEqual(await verifyWebhook(new TextEncoder().encode(BODY), new Headers(headers()), SECRET, at(TIMESTAMP + 299)), { test: 2432232314 });
    const several = headers(`v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= ${SIGNATURE} v2,x`);
    assert.deepEqual(await verifyWebhook(BODY, several, SECRET, at(TIMESTAMP)), { test: 2432232314 });
  });

  test("refused: a wrong signature, another version, a tampered body, another secret, a timestamp over 5 minutes off, a missing header", async () => {
    const cases: [string, Parameters<typeof verifyWebhook>][] = [
      ["wrong signature", [BODY, headers("v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc="), SECRET, at(TIMESTAMP)]],
      ["other version", [BODY, headers(SIGNATURE.replace("v1,", "v2,")), SECRET, at(TIMESTAMP)]],
      ["tampered body", ['{"test": 2432232315}', headers(), SECRET, at(TIMESTAMP)]],
      ["other secret", [BODY, headers(), `whsec_${"A".repeat(32)}`, at(TIMESTAMP)]],
      ["too old", [BODY, headers(), SECRET, at(TIMESTAMP + 301)]],
      ["too new", [BODY, headers(), SECRET, at(TIMESTAMP - 301)]],
      ["bad timestamp", [BODY, headers(SIGNATURE, "soon"), SECRET, at(TIMESTAMP)]],
      ["missing header", [BODY, { "webhook-id": MSG_ID, "webhook-timestamp": String(TIMESTAMP) }, SECRET, at(TIMESTAMP)]],
    ];
    for (const [name, args] of cases) await assert.rejects(verifyWebhook(...args), WebhookVerificationError, name);
  });

  test("what the reference library signs verifies, with each of two secrets (a rotation)", async () => {
    const [oldSecret, newSecret] = [0, 1].map(() => `whsec_${randomBytes(32).toString("base64")}`);
    const body = JSON.stringify({ type: "transcription.completed", timestamp: new Date().toISOString(), data: { transcription_id: "t1" } });
    const now = new Date();
    const signature = [newSecret, oldSecret].map((s) => new Webhook(s).sign("msg_1", now, body)).join(" ");
    const sent = { "webhook-id": "msg_1", "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": signature };
    for (const secret of [oldSecret, newSecret]) assert.equal((await verifyWebhook(body, sent, secret)).type, "transcription.completed");
    await assert.rejects(verifyWebhook(body, sent, `whsec_${randomBytes(32).toString("base64")}`), WebhookVerificationError);
  });
});
