import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createTestUser } from "@/tests/support/factories.ts";
import { content, createChannel, createMaster, setUpContentTests } from "@/tests/api/content-support.ts";
import { db } from "@/lib/db/client.ts";
import { resetEnvCache } from "@/lib/env.ts";
import { call } from "@/tests/support/http.ts";
import { POST as postPreset } from "@/app/api/v1/presets/route.ts";

// No workers here: variants stay queued, which is all these tests need.
setUpContentTests({ workers: false });

async function setUp() {
  const user = await createTestUser();
  const a = await createChannel(user.key, "linkedin");
  const b = await createChannel(user.key, "bluesky");
  const master = await createMaster(user.key, "A short note about shipping.");
  return { ...user, a, b, master };
}

describe("idempotency", () => {
  test("the same client_request_id and payload replays the first answer", async () => {
    const { key, a, b, master } = await setUp();
    const body = { client_request_id: "req-1", targets: [{ channel_id: a, preset_id: "builtin-standard" }, { channel_id: b, preset_id: "builtin-short" }] };
    const first = await content.variants(key, master.id, body);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get("idempotent-replayed"), "false");
    const second = await content.variants(key, master.id, body);
    assert.equal(second.status, 201);
    assert.equal(second.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(second.body, first.body);
    // Target order is not part of the request's identity.
    const reordered = await content.variants(key, master.id, { ...body, targets: [...body.targets].reverse() });
    assert.deepEqual(reordered.body, first.body);
    assert.equal((await content.family(key, master.id)).body.variants.length, 2);
  });

  test("a different channel, preset, master content or source snapshot under the same id is 409 idempotency_conflict", async () => {
    const { key, a, b, master } = await setUp();
    const target = { channel_id: a, preset_id: "builtin-standard" };
    assert.equal((await content.variants(key, master.id, { client_request_id: "req-2", targets: [target] })).status, 201);
    const conflicts = {
      channel: { client_request_id: "req-2", targets: [{ ...target, channel_id: b }] },
      preset: { client_request_id: "req-2", targets: [{ ...target, preset_id: "builtin-thread" }] },
      "extra target": { client_request_id: "req-2", targets: [target, { channel_id: b, preset_id: "builtin-standard" }] },
    };
    for (const [what, body] of Object.entries(conflicts)) {
      const res = await content.variants(key, master.id, body);
      assert.equal(res.status, 409, what);
      assert.equal(res.body.error.code, "idempotency_conflict", what);
    }
    // Another master under the same id.
    const other = await createMaster(key, "Another note.");
    const otherMaster = await content.variants(key, other.id, { client_request_id: "req-2", targets: [target] });
    assert.equal(otherMaster.body.error.code, "idempotency_conflict");
    // The master's content changes.
    const edited = await content.edit(key, master.id, { expected_content_hash: master.content_hash, body: "Changed." });
    const changed = await content.variants(key, master.id, { client_request_id: "req-2", targets: [target] });
    assert.equal(changed.status, 409);
    assert.equal(changed.body.error.code, "idempotency_conflict");
    // Changed back: the same content, but a later source snapshot (version) than the first request's.
    await content.edit(key, master.id, { expected_content_hash: edited.body.item.content_hash, body: "A short note about shipping." });
    const reverted = (await content.get(key, master.id)).body.item;
    assert.equal(reverted.content_hash, master.content_hash);
    const snapshot = await content.variants(key, master.id, { client_request_id: "req-2", targets: [target] });
    assert.equal(snapshot.status, 409);
    assert.equal(snapshot.body.error.code, "idempotency_conflict");
    // Nothing extra was created by the refused requests.
    assert.equal((await content.family(key, master.id)).body.variants.length, 1);
  });

  test("a new client_request_id for existing targets reuses the variants", async () => {
    const { key, a, master } = await setUp();
    const target = { channel_id: a, preset_id: "builtin-standard" };
    const first = await content.variants(key, master.id, { client_request_id: "r-a", targets: [target] });
    const second = await content.variants(key, master.id, { client_request_id: "r-b", targets: [target] });
    assert.equal(second.status, 200);
    assert.equal(second.body.variants[0].created, false);
    assert.equal(second.body.variants[0].variant_id, first.body.variants[0].variant_id);
  });

  test("20 concurrent identical requests create exactly one set", async () => {
    const { key, a, b, master } = await setUp();
    const body = { client_request_id: "burst", targets: [{ channel_id: a, preset_id: "builtin-standard" }, { channel_id: b, preset_id: "builtin-thread" }] };
    const answers = await Promise.all(Array.from({ length: 20 }, () => content.variants(key, master.id, body)));
    for (const res of answers) {
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body, answers[0].body);
    }
    assert.equal(answers.filter((r) => r.headers.get("idempotent-replayed") === "false").length, 1);
    const prisma = await db();
    assert.equal(await prisma.post.count({ where: { masterId: master.id } }), 2);
    assert.equal(await prisma.generationTask.count({ where: { variant: { masterId: master.id } } }), 2);
    assert.equal(await prisma.variantRequest.count({ where: { masterId: master.id } }), 1);
  });

  test("the database itself refuses a second variant for the same master, channel and preset", async () => {
    const { id: userId, key, a, master } = await setUp();
    await content.variants(key, master.id, { client_request_id: "db", targets: [{ channel_id: a, preset_id: "builtin-standard" }] });
    const prisma = await db();
    await assert.rejects(
      prisma.post.create({
        data: { userId, kind: "variant", masterId: master.id, channelId: a, presetId: "builtin-standard", title: "", body: "", contentHash: "x" },
      }),
      /Unique constraint/,
    );
  });
});

describe("targets", () => {
  test("10 targets are accepted, 11 are 400", async () => {
    const { key, master } = await setUp();
    const channels = [];
    for (let i = 0; i < 11; i++) channels.push(await createChannel(key, "other"));
    const targets = channels.map((channel_id) => ({ channel_id, preset_id: "builtin-standard" }));
    const eleven = await content.variants(key, master.id, { client_request_id: "eleven", targets });
    assert.equal(eleven.status, 400);
    assert.equal(eleven.body.error.code, "validation_failed");
    assert.equal(eleven.body.error.details[0].path, "targets");
    const ten = await content.variants(key, master.id, { client_request_id: "ten", targets: targets.slice(0, 10) });
    assert.equal(ten.status, 201, ten.text);
    assert.equal(ten.body.variants.length, 10);
  });

  test("an inactive channel is 409 channel_inactive; a foreign or unknown channel or preset is 404", async () => {
    const { key, master } = await setUp();
    const bob = await createTestUser();
    const inactive = await createChannel(key, "x", false);
    const bobsChannel = await createChannel(bob.key, "x");
    const bobsPreset = (await call(postPreset, { method: "POST", path: "/api/v1/presets", key: bob.key, json: { name: "Bob's" } })).body.preset.id;
    const cases: [string, { channel_id: string; preset_id: string }, number, string][] = [
      ["inactive channel", { channel_id: inactive, preset_id: "builtin-standard" }, 409, "channel_inactive"],
      ["foreign channel", { channel_id: bobsChannel, preset_id: "builtin-standard" }, 404, "not_found"],
      ["unknown channel", { channel_id: "no-such-channel", preset_id: "builtin-standard" }, 404, "not_found"],
      ["foreign preset", { channel_id: await createChannel(key, "x"), preset_id: bobsPreset }, 404, "not_found"],
    ];
    for (const [what, target, status, code] of cases) {
      const res = await content.variants(key, master.id, { client_request_id: what.replaceAll(" ", "-"), targets: [target] });
      assert.equal(res.status, status, what);
      assert.equal(res.body.error.code, code, what);
    }
    assert.equal((await content.family(key, master.id)).body.variants.length, 0);
  });

  test("bad bodies are 400 validation_failed", async () => {
    const { key, a, master } = await setUp();
    const t = { channel_id: a, preset_id: "builtin-standard" };
    for (const body of [
      { targets: [t] },
      { client_request_id: "x", targets: [] },
      { client_request_id: "has space", targets: [t] },
      { client_request_id: "dup", targets: [t, t] },
      { client_request_id: "x", targets: [t], extra: 1 },
    ]) {
      const res = await content.variants(key, master.id, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, "validation_failed");
    }
  });

  test("a variant's id is not a master: 404", async () => {
    const { key, a, master } = await setUp();
    const made = await content.variants(key, master.id, { client_request_id: "v", targets: [{ channel_id: a, preset_id: "builtin-standard" }] });
    const res = await content.variants(key, made.body.variants[0].variant_id, { client_request_id: "v2", targets: [{ channel_id: a, preset_id: "builtin-short" }] });
    assert.equal(res.status, 404);
  });
});

describe("feature flag", () => {
  test("with CONTENT_VARIANTS_ENABLED=false the variant routes answer 404 feature_disabled; masters still work", async () => {
    const { key, a, master } = await setUp();
    const made = await content.variants(key, master.id, { client_request_id: "pre", targets: [{ channel_id: a, preset_id: "builtin-standard" }] });
    const variantId = made.body.variants[0].variant_id;
    process.env.CONTENT_VARIANTS_ENABLED = "false";
    resetEnvCache();
    try {
      const hash = "0".repeat(64);
      const answers = {
        variants: await content.variants(key, master.id, { client_request_id: "off", targets: [{ channel_id: a, preset_id: "builtin-short" }] }),
        regenerate: await content.regenerate(key, variantId),
        approve: await content.approve(key, variantId, { content_hash: hash }),
        manual: await content.manual(key, variantId, { client_event_id: "off", content_hash: hash }),
      };
      for (const [route, res] of Object.entries(answers)) {
        assert.equal(res.status, 404, route);
        assert.equal(res.body.error.code, "feature_disabled", route);
        assert.match(res.body.error.message, /not enabled/);
      }
      assert.equal((await content.family(key, master.id)).status, 200);
      assert.equal((await content.create(key, { body: "still fine" })).status, 201);
    } finally {
      delete process.env.CONTENT_VARIANTS_ENABLED;
      resetEnvCache();
    }
    assert.equal((await content.regenerate(key, variantId)).status, 202);
  });
});
