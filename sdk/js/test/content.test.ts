import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { before, describe, test } from "node:test";
import { ConflictError, IdempotencyConflictError, NotFoundError, Voicedraft, type Channel, type Preset } from "../dist/index.js";
import { getService, type Service } from "./service.ts";

describe("content workflow", () => {
  let service: Service;
  let client: Voicedraft;
  let channel: Channel;
  let preset: Preset;
  before(async () => {
    service = await getService();
    client = new Voicedraft({ baseUrl: service.baseUrl, apiKey: service.apiKey });
    ({ channel } = await client.channels.create({ platform: "linkedin", name: `SDK ${randomBytes(3).toString("hex")}` }));
    preset = (await client.presets.list()).presets.find((p) => p.built_in)!;
    assert.ok(preset, "the service has built-in presets");
  });

  test("channels: create and list", async () => {
    assert.equal(channel.platform, "linkedin");
    assert.equal(channel.active, true);
    assert.ok((await client.channels.list()).channels.some((c) => c.id === channel.id));
  });

  test("master → variants (idempotent by client_request_id) → family → approve → deliveries → manual confirmation", async () => {
    const { item: master } = await client.content.createMaster({ title: "Why we moved", body: "We moved to Postgres.\n\nIt was worth it." });
    assert.equal(master.kind, "master");
    assert.match(master.content_hash, /^[0-9a-f]{64}$/);

    const client_request_id = `sdk-js-${randomBytes(6).toString("hex")}`;
    const targets = [{ channel_id: channel.id, preset_id: preset.id }];
    const created = await client.content.createVariants(master.id, { client_request_id, targets });
    assert.equal(created.master_id, master.id);
    assert.equal(created.variants.length, 1);
    assert.equal(created.variants[0].created, true);
    const replay = await client.content.createVariants(master.id, { client_request_id, targets });
    assert.equal(replay.variants[0].variant_id, created.variants[0].variant_id);
    const { item: other } = await client.content.createMaster({ body: "Another master." });
    const conflict = await client.content.createVariants(other.id, { client_request_id, targets }).catch((err: unknown) => err);
    assert.ok(conflict instanceof IdempotencyConflictError, String(conflict));
    assert.equal(conflict.status, 409);
    assert.equal(conflict.code, "idempotency_conflict");
    assert.ok(conflict.requestId);

    const family = await client.waitForVariants(master.id, { timeout: 60_000 });
    assert.equal(family.master.id, master.id);
    const variant = family.variants.find((v) => v.id === created.variants[0].variant_id)!;
    assert.equal(variant.generation?.state, "succeeded", JSON.stringify(variant.generation));
    assert.equal(variant.approval?.state, "awaiting_approval");
    assert.equal(variant.freshness, "fresh");

    const wrongHash = await client.content.approveVariant(variant.id, { content_hash: "0".repeat(64) }).catch((err: unknown) => err);
    assert.ok(wrongHash instanceof ConflictError && !(wrongHash instanceof IdempotencyConflictError), String(wrongHash));
    assert.equal(wrongHash.code, "edit_conflict");
    const { item: approved } = await client.content.approveVariant(variant.id, { content_hash: variant.content_hash });
    assert.equal(approved.approval?.state, "approved");
    assert.equal(approved.approval?.approved_hash, variant.content_hash);

    const shared = await client.content.recordDelivery(variant.id, { method: "share", state: "presented" });
    assert.equal(shared.delivery.state, "presented", "a share panel never confirms a publication");
    assert.equal(shared.replayed, false);

    const client_event_id = `sdk-js-${randomBytes(6).toString("hex")}`;
    const input = { content_hash: variant.content_hash, published_url: "https://www.linkedin.com/feed/update/1", client_event_id };
    const manual = await client.content.confirmManualDelivery(variant.id, input);
    assert.equal(manual.delivery.state, "confirmed_manual");
    assert.equal(manual.delivery.method, "manual");
    assert.equal((await client.content.confirmManualDelivery(variant.id, input)).replayed, true);

    const after = await client.content.getFamily(master.id);
    assert.deepEqual(new Set(after.deliveries.map((d) => d.id)), new Set([shared.delivery.id, manual.delivery.id]));
  });

  test("an edit invalidates the approval; regenerate queues a new task; edits are conflict-protected", async () => {
    const { item: master } = await client.content.createMaster({ body: "Short note about releases." });
    const { variants } = await client.content.createVariants(master.id, { targets: [{ channel_id: channel.id, preset_id: preset.id }] });
    const family = await client.waitForVariants(master.id);
    const variant = family.variants.find((v) => v.id === variants[0].variant_id)!;
    await client.content.approveVariant(variant.id, { content_hash: variant.content_hash });

    const { item: edited } = await client.content.updateItem(variant.id, { expected_content_hash: variant.content_hash, body: "Edited by hand." });
    assert.notEqual(edited.content_hash, variant.content_hash);
    assert.equal(edited.approval?.state, "awaiting_approval", "the approval covered the old text only");
    const stale = await client.content.updateItem(variant.id, { expected_content_hash: variant.content_hash, body: "x" }).catch((e: unknown) => e);
    assert.ok(stale instanceof ConflictError);
    assert.equal(stale.code, "edit_conflict");

    const regenerated = await client.content.regenerateVariant(variant.id, { expected_content_hash: edited.content_hash });
    assert.match(regenerated.task_id, /\S/);
    assert.notEqual(regenerated.task_id, variant.generation?.task_id);
    assert.equal((await client.content.getItem(variant.id)).item.generation?.task_id, regenerated.task_id);
  });

  test("another user's content is NotFoundError; a bad key is AuthenticationError", async () => {
    const { item: master } = await client.content.createMaster({ body: "Mine only." });
    const other = new Voicedraft({ baseUrl: service.baseUrl, apiKey: service.otherApiKey });
    const error = await other.content.getFamily(master.id).catch((err: unknown) => err);
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.code, "not_found");
    await assert.rejects(other.content.approveVariant(master.id, { content_hash: master.content_hash }), NotFoundError);
    await assert.rejects(new Voicedraft({ baseUrl: service.baseUrl, apiKey: "vd_wrong" }).channels.list(), { status: 401 });
  });
});
