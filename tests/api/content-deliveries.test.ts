import { describe, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { createTestUser } from "@/tests/support/factories.ts";
import { content, createChannel, createMaster, setUpContentTests } from "@/tests/api/content-support.ts";
import { db } from "@/lib/db/client.ts";
import { generateVariantJob } from "@/lib/posts/generation/generation-job.ts";

setUpContentTests({ workers: false });

async function approvedVariant() {
  const user = await createTestUser();
  const channel = await createChannel(user.key, "mastodon");
  const master = await createMaster(user.key, "Shipping notes for the week.");
  const made = await content.variants(user.key, master.id, { client_request_id: "d", targets: [{ channel_id: channel, preset_id: "builtin-standard" }] });
  const { variant_id: id, task_id: taskId } = made.body.variants[0];
  await generateVariantJob.run({ taskId }, { jobId: "t", attempt: 1, lastAttempt: true });
  const hash = (await content.get(user.key, id)).body.item.content_hash;
  assert.equal((await content.approve(user.key, id, { content_hash: hash })).status, 200);
  return { ...user, master, id, hash };
}

describe("delivery evidence", () => {
  test("a share goes initiated → presented → cancelled, each event idempotent, and never becomes confirmed", async () => {
    const { key, id, hash } = await approvedVariant();
    const started = await content.deliver(key, id, { client_event_id: "e1", method: "share", state: "initiated" });
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.delivery.state, "initiated");
    assert.equal(started.body.delivery.content_hash, hash);
    const deliveryId = started.body.delivery.id;
    const presented = await content.deliver(key, id, { client_event_id: "e2", method: "share", state: "presented", delivery_id: deliveryId });
    assert.equal(presented.status, 201);
    assert.equal(presented.body.delivery.id, deliveryId);
    assert.equal(presented.body.delivery.state, "presented");
    // The same event again replays; it does not move the delivery.
    const replay = await content.deliver(key, id, { client_event_id: "e1", method: "share", state: "initiated" });
    assert.equal(replay.status, 200);
    assert.equal(replay.body.replayed, true);
    assert.equal(replay.body.delivery.id, deliveryId);
    // The same id with another payload is a conflict.
    const conflict = await content.deliver(key, id, { client_event_id: "e1", method: "copy", state: "initiated" });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.error.code, "idempotency_conflict");
    // Backwards is refused; cancelling is allowed; nothing leaves cancelled.
    const back = await content.deliver(key, id, { client_event_id: "e3", method: "share", state: "initiated", delivery_id: deliveryId });
    assert.equal(back.status, 409);
    assert.equal(back.body.error.code, "invalid_transition");
    assert.equal((await content.deliver(key, id, { client_event_id: "e4", method: "share", state: "cancelled", delivery_id: deliveryId })).body.delivery.state, "cancelled");
    const afterCancel = await content.deliver(key, id, { client_event_id: "e5", method: "share", state: "failed", delivery_id: deliveryId });
    assert.equal(afterCancel.body.error.code, "invalid_transition");
    // The family shows the evidence as it ended.
    const family = (await content.family(key, id)).body;
    assert.deepEqual(family.deliveries.map((d: { id: string; state: string }) => [d.id, d.state]), [[deliveryId, "cancelled"]]);
  });

  test("a client cannot claim a confirmed state on /deliveries", async () => {
    const { key, id, master } = await approvedVariant();
    for (const state of ["confirmed", "confirmed_manual", "published", "delivered"]) {
      for (const itemId of [id, master.id]) {
        const res = await content.deliver(key, itemId, { client_event_id: `c-${state}`, method: "share", state });
        assert.equal(res.status, 400, state);
        assert.equal(res.body.error.code, "validation_failed");
      }
    }
    const manualMethod = await content.deliver(key, id, { client_event_id: "mm", method: "manual", state: "initiated" });
    assert.equal(manualMethod.status, 400);
    const prisma = await db();
    assert.equal(await prisma.contentDelivery.count({ where: { state: { startsWith: "confirmed" } } }), 0);
  });

  test("copy and export of a master record evidence too; an unknown delivery_id is 404", async () => {
    const { key, master } = await approvedVariant();
    const copy = await content.deliver(key, master.id, { client_event_id: "c1", method: "copy", state: "presented" });
    assert.equal(copy.status, 201);
    assert.equal(copy.body.delivery.item_id, master.id);
    const exported = await content.deliver(key, master.id, { client_event_id: "x1", method: "export", state: "failed" });
    assert.equal(exported.body.delivery.state, "failed");
    const unknown = await content.deliver(key, master.id, { client_event_id: "x2", method: "export", state: "presented", delivery_id: "nope" });
    assert.equal(unknown.status, 404);
    const wrongMethod = await content.deliver(key, master.id, { client_event_id: "x3", method: "share", state: "cancelled", delivery_id: copy.body.delivery.id });
    assert.equal(wrongMethod.body.error.code, "invalid_transition");
  });

  test("manual confirmation needs the approved hash, and contacts nothing outside the database", async () => {
    const { key, id, hash } = await approvedVariant();
    // A real server at the published URL: it must never hear from us.
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits += 1;
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    // Watch every outbound socket and fetch during the confirmation.
    const connects: string[] = [];
    const originalConnect = net.Socket.prototype.connect;
    const originalFetch = globalThis.fetch;
    let fetches = 0;
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      const first = args[0] as { port?: number; host?: string; path?: string } | number;
      connects.push(typeof first === "object" ? `${first.host ?? first.path}:${first.port ?? ""}` : String(first));
      return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
    } as typeof net.Socket.prototype.connect;
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      fetches += 1;
      return originalFetch(...args);
    }) as typeof fetch;
    let confirmedId = "";
    try {
      const wrong = await content.manual(key, id, { client_event_id: "w", content_hash: "0".repeat(64), published_url: `http://127.0.0.1:${port}/post/1` });
      assert.equal(wrong.status, 409);
      assert.equal(wrong.body.error.code, "edit_conflict");
      const res = await content.manual(key, id, { client_event_id: "ok", content_hash: hash, published_url: `http://127.0.0.1:${port}/post/1` });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.delivery.state, "confirmed_manual");
      assert.equal(res.body.delivery.published_url, `http://127.0.0.1:${port}/post/1`);
      confirmedId = res.body.delivery.id;
    } finally {
      net.Socket.prototype.connect = originalConnect;
      globalThis.fetch = originalFetch;
    }
    await new Promise((r) => setTimeout(r, 200));
    await new Promise((resolve) => server.close(resolve));
    assert.equal(hits, 0);
    assert.equal(fetches, 0);
    assert.ok(!connects.some((c) => c.endsWith(`:${port}`)), connects.join(", "));
    // A manual confirmation is not something /deliveries can move.
    const move = await content.deliver(key, id, { client_event_id: "mv", method: "share", state: "cancelled", delivery_id: confirmedId });
    assert.equal(move.status, 409);
    assert.equal(move.body.error.code, "invalid_transition");
  });

  test("a second confirmation of the same content answers the first one; a new link replaces the old", async () => {
    const { key, id, hash } = await approvedVariant();
    const first = await content.manual(key, id, { client_event_id: "tap-1", content_hash: hash });
    assert.equal(first.status, 201, first.text);
    const again = await content.manual(key, id, { client_event_id: "tap-2", content_hash: hash, published_url: "https://example.com/p/1" });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.replayed, true);
    assert.equal(again.body.delivery.id, first.body.delivery.id);
    assert.equal(again.body.delivery.published_url, "https://example.com/p/1");
    // Its event id now replays this answer; reusing it for something else is still a conflict.
    assert.equal((await content.manual(key, id, { client_event_id: "tap-2", content_hash: hash, published_url: "https://example.com/p/1" })).status, 200);
    const reused = await content.manual(key, id, { client_event_id: "tap-2", content_hash: hash });
    assert.equal(reused.body.error.code, "idempotency_conflict");
    const prisma = await db();
    assert.equal(await prisma.contentDelivery.count({ where: { itemId: id, method: "manual" } }), 1);
  });

  test("the manual route refuses masters (404) and a bad URL (400)", async () => {
    const { key, id, master, hash } = await approvedVariant();
    assert.equal((await content.manual(key, master.id, { client_event_id: "m", content_hash: master.content_hash })).status, 404);
    const badUrl = await content.manual(key, id, { client_event_id: "u", content_hash: hash, published_url: "javascript:alert(1)" });
    assert.equal(badUrl.status, 400);
    assert.equal(badUrl.body.error.details[0].path, "published_url");
  });
});

describe("a thread shared post by post (issue 56)", () => {
  test("each post's share is a delivery that says which post it presented; a post the thread lacks is refused", async () => {
    const user = await createTestUser();
    const channel = await createChannel(user.key, "x");
    const body = Array.from({ length: 8 }, (_, i) => `Point ${i + 1}: the meeting ran long because nobody wrote the agenda down before it began.`).join(" ");
    const master = await createMaster(user.key, body);
    const made = await content.variants(user.key, master.id, { client_request_id: "t", targets: [{ channel_id: channel, preset_id: "builtin-thread" }] });
    const { variant_id: id, task_id: taskId } = made.body.variants[0];
    await generateVariantJob.run({ taskId }, { jobId: "t", attempt: 1, lastAttempt: true });
    const item = (await content.get(user.key, id)).body.item;
    assert.ok(item.posts.length >= 2, `a thread: ${item.posts.length} posts`);
    assert.equal((await content.approve(user.key, id, { content_hash: item.content_hash })).status, 200);
    for (const post of [1, 2]) {
      const started = await content.deliver(user.key, id, { client_event_id: `p${post}a`, method: "share", state: "initiated", post });
      assert.equal(started.status, 201, started.text);
      assert.equal(started.body.delivery.post, post);
      const presented = await content.deliver(user.key, id, { client_event_id: `p${post}b`, method: "share", state: "presented", delivery_id: started.body.delivery.id });
      assert.equal(presented.body.delivery.post, post, "the delivery keeps its post");
      assert.equal(presented.body.delivery.state, "presented");
    }
    const other = await content.deliver(user.key, id, { client_event_id: "p1c", method: "share", state: "initiated", post: 1 });
    const moved = await content.deliver(user.key, id, { client_event_id: "p1d", method: "share", state: "presented", delivery_id: other.body.delivery.id, post: 2 });
    assert.equal(moved.status, 409);
    assert.equal(moved.body.error.code, "invalid_transition");
    const beyond = await content.deliver(user.key, id, { client_event_id: "p9", method: "share", state: "initiated", post: item.posts.length + 1 });
    assert.equal(beyond.status, 400);
    assert.equal(beyond.body.error.code, "validation_failed");
    const whole = await content.deliver(user.key, id, { client_event_id: "w", method: "copy", state: "initiated" });
    assert.equal(whole.body.delivery.post, null, "without post: the whole variant");
  });
});
