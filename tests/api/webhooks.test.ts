import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { GET as listWebhooks, POST as createWebhook } from "@/app/api/v1/webhooks/route.ts";
import { DELETE as deleteWebhook, GET as getWebhook, PATCH as patchWebhook } from "@/app/api/v1/webhooks/[id]/route.ts";
import { POST as rotateSecret } from "@/app/api/v1/webhooks/[id]/rotate-secret/route.ts";
import { GET as listDeliveries } from "@/app/api/v1/webhooks/[id]/deliveries/route.ts";
import { POST as redeliver } from "@/app/api/v1/webhooks/[id]/deliveries/[delivery_id]/redeliver/route.ts";
import { POST as sendTest } from "@/app/api/v1/webhooks/[id]/test/route.ts";
import { DELETE as deleteTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { db } from "@/lib/db/client.ts";
import { resetEnvCache } from "@/lib/env.ts";
import { startJobWorkers, type JobWorkers } from "@/lib/jobs/workers.ts";
import { saveNote } from "@/lib/notes/note-recognized.ts";
import { webhookEventJob } from "@/lib/background-work.ts";
import { webhookDeliveryJob } from "@/lib/webhooks/deliveries/delivery-job.ts";
import { OVERDUE_SECONDS, recoverOverdueDeliveries } from "@/lib/webhooks/deliveries/recover-deliveries.ts";
import { useResolver } from "@/lib/webhooks/url-guard.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";
import { startReceiver, until, verify } from "../support/webhook-receiver.ts";

// Issue 34: webhooks on both databases. CRUD and owner only; the SSRF table (every refused range,
// and DNS rebinding through a test resolver); deliveries to a real receiver on 127.0.0.1 whose
// signatures the Standard Webhooks reference library checks; retries, disabling with a short
// schedule, redelivery, the test event and a rotation's two signatures.

process.env.JOBS_POLL_SECONDS = "0.5";
process.env.WEBHOOKS_RETRY_SCHEDULE = "1,1";
const database = setUpTestDatabase();

let workers: JobWorkers;
before(async () => {
  await database.ready;
  workers = await startJobWorkers([webhookEventJob, webhookDeliveryJob], []);
});
after(async () => {
  await workers?.stop();
  await receiver.close();
});

function allowPrivate(on: boolean) {
  process.env.WEBHOOKS_ALLOW_PRIVATE = String(on);
  resetEnvCache();
}
beforeEach(() => allowPrivate(false));

const receiver = await startReceiver();

type Body = Record<string, any>;
const create = (key: string | undefined, json: unknown) => call(createWebhook, { method: "POST", path: "/api/v1/webhooks", key, json });
const list = (key: string) => call(listWebhooks, { path: "/api/v1/webhooks", key });
const read = (key: string, id: string) => call(getWebhook, { path: `/api/v1/webhooks/${id}`, params: { id }, key });
const patch = (key: string, id: string, json: unknown) => call(patchWebhook, { method: "PATCH", path: `/api/v1/webhooks/${id}`, params: { id }, key, json });
const remove = (key: string, id: string) => call(deleteWebhook, { method: "DELETE", path: `/api/v1/webhooks/${id}`, params: { id }, key });
const rotate = (key: string, id: string) => call(rotateSecret, { method: "POST", path: `/api/v1/webhooks/${id}/rotate-secret`, params: { id }, key });
const deliveries = (key: string, id: string, query = "") => call(listDeliveries, { path: `/api/v1/webhooks/${id}/deliveries${query}`, params: { id }, key });
const test_ = (key: string, id: string) => call(sendTest, { method: "POST", path: `/api/v1/webhooks/${id}/test`, params: { id }, key });
const again = (key: string, id: string, deliveryId: string) =>
  call(redeliver, { method: "POST", path: `/api/v1/webhooks/${id}/deliveries/${deliveryId}/redeliver`, params: { id, delivery_id: deliveryId }, key });

/** A webhook of `user` at a receiver path (private addresses allowed for it), with its secret. */
async function receiverWebhook(user: TestUser, path: string, events: string[] = ["transcription.completed"]) {
  allowPrivate(true);
  const res = await create(user.key, { url: receiver.url(path), events });
  assert.equal(res.status, 201, res.text);
  return { id: res.body.webhook.id as string, secret: res.body.secret as string };
}

/** The delivery once its status is no longer pending. */
async function settledDelivery(key: string, webhookId: string, deliveryId: string, attempts = 1): Promise<Body> {
  return until(
    async () => (await deliveries(key, webhookId)).body.deliveries.find((d: Body) => d.id === deliveryId),
    (d) => d && d.status !== "pending" && d.attempts.length >= attempts,
  );
}

describe("webhook endpoints (CRUD, owner only)", () => {
  test("create shows the secret once; list, get, patch and delete never do", async () => {
    const user = await createTestUser();
    const created = await create(user.key, { url: "https://93.184.216.34/hook", events: ["transcription.completed", "note.deleted", "note.deleted"], description: " n8n " });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const { webhook } = created.body;
    assert.deepEqual([webhook.url, webhook.events, webhook.description, webhook.enabled, webhook.disabled_reason], [
      "https://93.184.216.34/hook", ["transcription.completed", "note.deleted"], "n8n", true, null,
    ]);
    for (const res of [await list(user.key), await read(user.key, webhook.id)]) {
      assert.equal(res.status, 200, res.text);
      assert.ok(!res.text.includes(created.body.secret) && !res.text.includes("whsec_"), res.text);
    }
    assert.deepEqual((await list(user.key)).body.webhooks.map((w: Body) => w.id), [webhook.id]);

    const changed = await patch(user.key, webhook.id, { events: ["optimization.completed"], enabled: false });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual([changed.body.webhook.events, changed.body.webhook.enabled], [["optimization.completed"], false]);
    assert.ok(!changed.text.includes("whsec_"));

    const deleted = await remove(user.key, webhook.id);
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.body.deleted.id, webhook.id);
    assert.equal((await read(user.key, webhook.id)).status, 404);
    assert.deepEqual((await list(user.key)).body.webhooks, []);
  });

  test("bad input is 400 validation_failed naming the field; no key is 401", async () => {
    const user = await createTestUser();
    const cases: [unknown, string][] = [
      [{ url: "ftp://93.184.216.34/", events: ["note.deleted"] }, "url"],
      [{ url: "not a url", events: ["note.deleted"] }, "url"],
      [{ url: "https://93.184.216.34/", events: [] }, "events"],
      [{ url: "https://93.184.216.34/", events: ["note.created"] }, "events.0"],
      [{ url: "https://93.184.216.34/", events: ["webhook.test"] }, "events.0"],
      [{ url: "https://93.184.216.34/", events: ["note.deleted"], secret: "mine" }, ""],
    ];
    for (const [json, path] of cases) {
      const res = await create(user.key, json);
      assert.equal(res.status, 400, `${JSON.stringify(json)}: ${res.text}`);
      assert.equal(res.body.error.code, "validation_failed");
      if (path) assert.ok(res.body.error.details.some((d: Body) => d.path === path), res.text);
    }
    const { body } = await create(user.key, { url: "https://93.184.216.34/", events: ["note.deleted"] });
    assert.equal((await patch(user.key, body.webhook.id, {})).status, 400);
    assert.equal((await create(undefined, { url: "https://93.184.216.34/", events: ["note.deleted"] })).status, 401);
  });

  test("another user's webhook is 404 on every operation and stays as it was", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const { body } = await create(alice.key, { url: "https://93.184.216.34/a", events: ["note.deleted"] });
    const id = body.webhook.id;
    const answers = [
      await read(bob.key, id),
      await patch(bob.key, id, { url: "https://93.184.216.35/stolen" }),
      await rotate(bob.key, id),
      await deliveries(bob.key, id),
      await test_(bob.key, id),
      await remove(bob.key, id),
    ];
    for (const res of answers) {
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.error.code, "not_found");
    }
    assert.deepEqual((await list(bob.key)).body.webhooks, []);
    const mine = await read(alice.key, id);
    assert.equal(mine.body.webhook.url, "https://93.184.216.34/a");
  });
});

describe("the SSRF guard", () => {
  const REFUSED_ALWAYS = [
    "http://169.254.169.254/latest/meta-data/",
    "http://169.254.1.1/",
    "http://[fe80::1]/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://100.100.100.200/",
    "http://168.63.129.16/",
    "http://[fd00:ec2::254]/",
    "http://[::ffff:169.254.169.254]/",
    "http://0.0.0.0/",
    "http://224.0.0.1/",
    // An IPv4 address inside an IPv6 one (issue 66): IPv4-compatible, NAT64, 6to4.
    "http://[::7f00:1]/",
    "http://[::a00:1]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::a00:1]/",
    "http://[2002:a00:1::1]/",
  ];
  const PRIVATE = [
    "http://127.0.0.1/",
    "http://127.1.2.3:8080/",
    "http://[::1]/",
    "http://localhost/",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.1.1/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://100.64.0.1/",
  ];

  test("refused at creation (and on PATCH) with 400 webhook_url_not_allowed: loopback, private, link-local, unique-local, metadata", async () => {
    const user = await createTestUser();
    for (const url of [...REFUSED_ALWAYS, ...PRIVATE]) {
      const res = await create(user.key, { url, events: ["note.deleted"] });
      assert.equal(res.status, 400, `${url}: ${res.text}`);
      assert.equal(res.body.error.code, "webhook_url_not_allowed", url);
      assert.equal(res.body.error.details[0].path, "url");
    }
    const { body } = await create(user.key, { url: "https://93.184.216.34/", events: ["note.deleted"] });
    const res = await patch(user.key, body.webhook.id, { url: "http://10.1.1.1/" });
    assert.equal(res.body.error.code, "webhook_url_not_allowed", res.text);
    assert.deepEqual((await list(user.key)).body.webhooks.length, 1);
  });

  test("names are resolved: any refused address refuses the URL", async () => {
    const user = await createTestUser();
    const restore = useResolver(async (host) =>
      ({ "public.test": ["93.184.216.34"], "internal.test": ["10.1.2.3"], "mixed.test": ["93.184.216.34", "127.0.0.1"], "meta.test": ["169.254.169.254"] })[host] ??
      Promise.reject(new Error("ENOTFOUND")),
    );
    try {
      assert.equal((await create(user.key, { url: "https://public.test/h", events: ["note.deleted"] })).status, 201);
      for (const host of ["internal.test", "mixed.test", "meta.test"]) {
        const res = await create(user.key, { url: `https://${host}/h`, events: ["note.deleted"] });
        assert.equal(res.body.error?.code, "webhook_url_not_allowed", `${host}: ${res.text}`);
        assert.match(res.body.error.message, new RegExp(host.replace(".", "\\.")));
      }
    } finally {
      restore();
    }
  });

  test("WEBHOOKS_ALLOW_PRIVATE=true allows loopback and private networks, never link-local or metadata", async () => {
    const user = await createTestUser();
    allowPrivate(true);
    for (const url of PRIVATE) assert.equal((await create(user.key, { url, events: ["note.deleted"] })).status, 201, url);
    for (const url of REFUSED_ALWAYS) {
      const res = await create(user.key, { url, events: ["note.deleted"] });
      assert.equal(res.body.error?.code, "webhook_url_not_allowed", `${url}: ${res.text}`);
    }
  });

  test("DNS rebinding: a name that pointed to a public address and now points to a private one is refused at delivery", async () => {
    const user = await createTestUser();
    let address = "93.184.216.34";
    const restore = useResolver(async () => [address]);
    try {
      const created = await create(user.key, { url: `http://rebind.test:${receiver.port}/rebind`, events: ["note.deleted"] });
      assert.equal(created.status, 201, created.text);
      const id = created.body.webhook.id;
      address = "127.0.0.1"; // the receiver
      const queued = await test_(user.key, id);
      assert.equal(queued.status, 202, queued.text);
      const delivery = await settledDelivery(user.key, id, queued.body.delivery.id);
      assert.equal(delivery.status, "failed");
      assert.match(delivery.attempts[0].error, /Refused: rebind\.test resolves to 127\.0\.0\.1 is a loopback address/);
      assert.equal(delivery.attempts[0].status_code, null);
      assert.equal(receiver.at("/rebind").length, 0, "the receiver was never called");

      // The same name with private networks allowed reaches it: the guard, not the name, stopped it.
      allowPrivate(true);
      const second = await test_(user.key, id);
      assert.equal((await settledDelivery(user.key, id, second.body.delivery.id)).status, "delivered");
      assert.equal(receiver.at("/rebind").length, 1);
    } finally {
      restore();
    }
  });
});

describe("deliveries to a real receiver", () => {
  test("an event where it happens: transcription.completed and note.deleted, signed and verified by the reference library", async () => {
    const user = await createTestUser();
    const hook = await receiverWebhook(user, "/events", ["transcription.completed", "note.deleted"]);
    const { result } = await saveNote({
      userId: user.id,
      data: {
        text: "Buy milk.", rawText: "buy milk", language: "en", durationSec: 2, engine: "test", segments: [], dictionaryReplacements: 0,
        audioSha256: "0".repeat(64), requestHash: `hook-${hook.id}`, optimizationId: null,
      },
    });
    const [completed] = await until(async () => receiver.at("/events"), (r) => r.length >= 1);
    const event = verify(hook.secret, completed);
    assert.equal(event.type, "transcription.completed");
    assert.ok(!Number.isNaN(Date.parse(event.timestamp)));
    assert.equal(event.data.transcription_id, result.id);
    assert.equal(event.data.transcription.text, "Buy milk.");
    assert.match(String(completed.headers["webhook-id"]), /^msg_/);
    assert.equal(completed.headers["content-type"], "application/json");
    // A wrong secret does not verify.
    assert.throws(() => verify(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, completed));

    const removed = await call(deleteTranscription, { method: "DELETE", path: `/api/v1/transcriptions/${result.id}`, params: { id: result.id }, key: user.key });
    assert.equal(removed.status, 204);
    const all = await until(async () => receiver.at("/events"), (r) => r.length >= 2);
    const deleted = verify(hook.secret, all[1]);
    assert.deepEqual([deleted.type, deleted.data], ["note.deleted", { transcription_id: result.id }]);

    const log = (await deliveries(user.key, hook.id)).body.deliveries;
    assert.deepEqual(log.map((d: Body) => [d.type, d.status]), [["note.deleted", "delivered"], ["transcription.completed", "delivered"]]);
    assert.equal(log[1].event_id, completed.headers["webhook-id"]);
    assert.equal(log[1].attempts[0].status_code, 204);
  });

  test("an endpoint that does not listen to an event, or is paused, is not sent it", async () => {
    const user = await createTestUser();
    const hook = await receiverWebhook(user, "/quiet", ["note.deleted"]);
    await saveNote({
      userId: user.id,
      data: { text: "x", rawText: "x", language: "en", durationSec: 1, engine: "test", segments: [], dictionaryReplacements: 0, audioSha256: "0".repeat(64), requestHash: `quiet-${hook.id}`, optimizationId: null },
    });
    // The test event is queued after the note's event would have been: once it is delivered, that one was not.
    const queued = await test_(user.key, hook.id);
    await settledDelivery(user.key, hook.id, queued.body.delivery.id);
    assert.equal(await (await db()).webhookDelivery.count({ where: { endpointId: hook.id } }), 1);
    assert.deepEqual(receiver.at("/quiet").map((r) => JSON.parse(r.body).type), ["webhook.test"]);
  });

  test("the test event is signed; a failing receiver is retried until it answers 2xx (attempts logged with status, error, excerpt)", async () => {
    const user = await createTestUser();
    const hook = await receiverWebhook(user, "/flaky");
    receiver.answer("/flaky", { status: 500, body: "x".repeat(1000) }, { status: 200, body: "ok" });
    // A test event is not retried (it is one attempt by hand); an event is. Queue a real one.
    await saveNote({
      userId: user.id,
      data: { text: "Retry me.", rawText: "retry me", language: "en", durationSec: 1, engine: "test", segments: [], dictionaryReplacements: 0, audioSha256: "0".repeat(64), requestHash: `flaky-${hook.id}`, optimizationId: null },
    });
    const [first] = await until(async () => (await deliveries(user.key, hook.id)).body.deliveries, (d) => d.length === 1);
    const delivery = await settledDelivery(user.key, hook.id, first.id, 2);
    assert.equal(delivery.status, "delivered");
    assert.deepEqual(delivery.attempts.map((a: Body) => a.status_code), [500, 200]);
    assert.match(delivery.attempts[0].error, /500/);
    assert.equal(delivery.attempts[0].response_excerpt, "x".repeat(200));
    assert.deepEqual([delivery.attempts[1].error, delivery.attempts[1].response_excerpt], [null, "ok"]);
    const sent = receiver.at("/flaky");
    assert.equal(sent.length, 2);
    assert.equal(sent[0].headers["webhook-id"], sent[1].headers["webhook-id"], "the same webhook-id on every attempt");
    for (const r of sent) assert.equal(verify(hook.secret, r).type, "transcription.completed");

    const tested = await test_(user.key, hook.id);
    assert.equal(tested.status, 202, tested.text);
    assert.deepEqual([tested.body.delivery.type, tested.body.delivery.status], ["webhook.test", "pending"]);
    assert.equal((await settledDelivery(user.key, hook.id, tested.body.delivery.id)).status, "delivered");
    assert.equal(verify(hook.secret, receiver.at("/flaky")[2]).type, "webhook.test");
  });

  test("redirects are not followed, and a receiver failing through the whole schedule disables the endpoint (enabling clears it)", async () => {
    const user = await createTestUser();
    const hook = await receiverWebhook(user, "/down");
    receiver.answer("/down", { status: 302, headers: { location: receiver.url("/elsewhere") } });
    await saveNote({
      userId: user.id,
      data: { text: "Down.", rawText: "down", language: "en", durationSec: 1, engine: "test", segments: [], dictionaryReplacements: 0, audioSha256: "0".repeat(64), requestHash: `down-${hook.id}`, optimizationId: null },
    });
    const [first] = await until(async () => (await deliveries(user.key, hook.id)).body.deliveries, (d) => d.length === 1);
    const delivery = await settledDelivery(user.key, hook.id, first.id, 3);
    assert.equal(delivery.status, "failed");
    assert.equal(delivery.attempts.length, 3, "the first attempt and the schedule's two retries");
    assert.match(delivery.attempts[0].error, /redirects are not followed/);
    assert.equal(receiver.at("/elsewhere").length, 0);

    const { webhook } = (await read(user.key, hook.id)).body;
    assert.equal(webhook.enabled, false);
    assert.match(webhook.disabled_reason, /Every delivery failed for 2 seconds/);
    assert.ok(webhook.disabled_at);

    // Redeliver: one more attempt by hand, to the paused endpoint too, with the same webhook-id.
    receiver.answer("/down", { status: 200 });
    const res = await again(user.key, hook.id, first.id);
    assert.equal(res.status, 202, res.text);
    const redelivered = await settledDelivery(user.key, hook.id, first.id, 4);
    assert.equal(redelivered.status, "delivered");
    const sent = receiver.at("/down");
    assert.equal(sent.length, 4);
    assert.equal(sent[3].headers["webhook-id"], sent[0].headers["webhook-id"]);
    assert.equal((await again(user.key, hook.id, "0190c1d0-0000-7000-8000-000000000000")).status, 404);

    const enabled = await patch(user.key, hook.id, { enabled: true });
    assert.deepEqual([enabled.body.webhook.enabled, enabled.body.webhook.disabled_reason, enabled.body.webhook.disabled_at], [true, null, null]);
  });

  test("rotation: for 24 h deliveries carry both signatures; each secret verifies; afterwards only the new one", async () => {
    const user = await createTestUser();
    const hook = await receiverWebhook(user, "/rotate");
    const rotated = await rotate(user.key, hook.id);
    assert.equal(rotated.status, 200, rotated.text);
    const newSecret = rotated.body.secret as string;
    assert.match(newSecret, /^whsec_/);
    assert.notEqual(newSecret, hook.secret);
    const overlap = Date.parse(rotated.body.webhook.previous_secret_expires_at) - Date.now();
    assert.ok(overlap > 23 * 3600_000 && overlap <= 24 * 3600_000, String(overlap));

    const first = await test_(user.key, hook.id);
    await settledDelivery(user.key, hook.id, first.body.delivery.id);
    const [during] = receiver.at("/rotate");
    assert.equal(String(during.headers["webhook-signature"]).split(" ").length, 2);
    assert.equal(verify(hook.secret, during).type, "webhook.test");
    assert.equal(verify(newSecret, during).type, "webhook.test");

    // The overlap over: one signature, by the new secret only.
    await (await db()).webhookEndpoint.update({ where: { id: hook.id }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    const second = await test_(user.key, hook.id);
    await settledDelivery(user.key, hook.id, second.body.delivery.id);
    const after = receiver.at("/rotate")[1];
    assert.equal(String(after.headers["webhook-signature"]).split(" ").length, 1);
    assert.equal(verify(newSecret, after).type, "webhook.test");
    assert.throws(() => verify(hook.secret, after));
  });

  test("the delivery log pages newest first", async () => {
    const user = await createTestUser();
    const hook = await receiverWebhook(user, "/pages");
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await test_(user.key, hook.id)).body.delivery.id);
    const page1 = await deliveries(user.key, hook.id, "?limit=2");
    assert.deepEqual(page1.body.deliveries.map((d: Body) => d.id), [ids[2], ids[1]]);
    const page2 = await deliveries(user.key, hook.id, `?limit=2&cursor=${page1.body.next_cursor}`);
    assert.deepEqual([page2.body.deliveries.map((d: Body) => d.id), page2.body.next_cursor], [[ids[0]], null]);
    assert.equal((await deliveries(user.key, hook.id, "?cursor=nope")).status, 400);
    for (const id of ids) await settledDelivery(user.key, hook.id, id);
  });
});

describe("the recovery sweep", () => {
  // A process that died between saving a delivery and queuing its job: the row is pending, no job exists.
  async function orphanDelivery(webhookId: string, dueSecondsAgo: number) {
    const prisma = await db();
    const eventId = `msg_orphan${Math.random().toString(36).slice(2)}`;
    const payload = JSON.stringify({ type: "note.deleted", timestamp: new Date().toISOString(), data: { id: "n1" } });
    return prisma.webhookDelivery.create({
      data: { endpointId: webhookId, eventId, type: "note.deleted", payload, nextAttemptAt: new Date(Date.now() - dueSecondsAgo * 1000) },
    });
  }

  test("queues again a delivery pending well past its time, which is then delivered once; a recent one is left to its job", async () => {
    const user = await createTestUser();
    const hook = await receiverWebhook(user, "/orphan", ["note.deleted"]);
    const lost = await orphanDelivery(hook.id, OVERDUE_SECONDS + 60);
    const recent = await orphanDelivery(hook.id, 5);
    // No job was queued for either: without the sweep nothing is sent.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(receiver.at("/orphan").length, 0);

    assert.equal(await recoverOverdueDeliveries(), 1);
    const delivered = await settledDelivery(user.key, hook.id, lost.id);
    assert.equal(delivered.status, "delivered");
    const received = receiver.at("/orphan");
    assert.equal(received.length, 1);
    assert.equal(received[0].headers["webhook-id"], lost.eventId);
    assert.equal(verify(hook.secret, received[0]).type, "note.deleted");

    // The recent one is not overdue; the delivered one is no longer pending: a second sweep queues nothing.
    assert.equal(await recoverOverdueDeliveries(), 0);
    const prisma = await db();
    assert.equal((await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: recent.id } })).status, "pending");
  });
});
