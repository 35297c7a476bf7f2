import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createTestUser } from "@/tests/support/factories.ts";
import { call, type CallResult } from "@/tests/support/http.ts";
import { content, createChannel, createMaster, setUpContentTests } from "@/tests/api/content-support.ts";
import { GET as listChannels } from "@/app/api/v1/channels/route.ts";
import { DELETE as deleteChannel, GET as getChannel, PATCH as patchChannel } from "@/app/api/v1/channels/[id]/route.ts";
import { GET as listPresets, POST as postPreset } from "@/app/api/v1/presets/route.ts";
import { DELETE as deletePreset, GET as getPreset, PATCH as patchPreset } from "@/app/api/v1/presets/[id]/route.ts";

setUpContentTests({ workers: false });

const NO_KEY = undefined as unknown as string; // call() then sends no Authorization header

describe("ownership", () => {
  test("another user's ids are 404 on every content, channel and preset route, and change nothing", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const channel = await createChannel(alice.key, "linkedin");
    const preset = (await call(postPreset, { method: "POST", path: "/api/v1/presets", key: alice.key, json: { name: "Mine" } })).body.preset.id;
    const master = await createMaster(alice.key, "Alice's note.");
    const made = await content.variants(alice.key, master.id, { client_request_id: "a", targets: [{ channel_id: channel, preset_id: preset }] });
    const variant = made.body.variants[0].variant_id;
    const hash = master.content_hash;
    const bobChannel = await createChannel(bob.key, "linkedin");

    const attempts: Record<string, () => Promise<CallResult>> = {
      "GET item (master)": () => content.get(bob.key, master.id),
      "GET item (variant)": () => content.get(bob.key, variant),
      "PATCH item": () => content.edit(bob.key, master.id, { expected_content_hash: hash, body: "Bob was here" }),
      "GET family (master)": () => content.family(bob.key, master.id),
      "GET family (variant)": () => content.family(bob.key, variant),
      "POST variants": () => content.variants(bob.key, master.id, { client_request_id: "b", targets: [{ channel_id: bobChannel, preset_id: "builtin-standard" }] }),
      "POST regenerate": () => content.regenerate(bob.key, variant),
      "POST approve": () => content.approve(bob.key, variant, { content_hash: hash }),
      "POST deliveries": () => content.deliver(bob.key, master.id, { client_event_id: "e", method: "share", state: "initiated" }),
      "POST deliveries/manual": () => content.manual(bob.key, variant, { client_event_id: "m", content_hash: hash }),
      "GET channel": () => call(getChannel, { path: `/api/v1/channels/${channel}`, params: { id: channel }, key: bob.key }),
      "PATCH channel": () => call(patchChannel, { method: "PATCH", path: `/api/v1/channels/${channel}`, params: { id: channel }, key: bob.key, json: { active: false } }),
      "DELETE channel": () => call(deleteChannel, { method: "DELETE", path: `/api/v1/channels/${channel}`, params: { id: channel }, key: bob.key }),
      "GET preset": () => call(getPreset, { path: `/api/v1/presets/${preset}`, params: { id: preset }, key: bob.key }),
      "PATCH preset": () => call(patchPreset, { method: "PATCH", path: `/api/v1/presets/${preset}`, params: { id: preset }, key: bob.key, json: { name: "x" } }),
      "DELETE preset": () => call(deletePreset, { method: "DELETE", path: `/api/v1/presets/${preset}`, params: { id: preset }, key: bob.key }),
    };
    for (const [route, attempt] of Object.entries(attempts)) {
      const res = await attempt();
      assert.equal(res.status, 404, `${route}: ${res.text}`);
      assert.equal(res.body.error.code, "not_found", route);
    }
    // Bob's lists do not show Alice's things; Alice's are untouched.
    assert.deepEqual((await content.list(bob.key)).body.items, []);
    assert.deepEqual((await call(listChannels, { path: "/api/v1/channels", key: bob.key })).body.channels.map((c: { id: string }) => c.id), [bobChannel]);
    const bobsPresets = (await call(listPresets, { path: "/api/v1/presets", key: bob.key })).body.presets;
    assert.ok(bobsPresets.every((p: { built_in: boolean }) => p.built_in));
    const family = (await content.family(alice.key, master.id)).body;
    assert.equal(family.master.body, "Alice's note.");
    assert.equal(family.variants.length, 1);
    assert.equal(family.variants[0].generation.state, "queued");
  });

  test("missing key is 401; a read-only key cannot write (403)", async () => {
    const master = await createMaster((await createTestUser()).key, "x");
    for (const res of [
      await content.list(NO_KEY),
      await content.create(NO_KEY, { body: "x" }),
      await content.family(NO_KEY, master.id),
    ]) {
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, "unauthorized");
    }
    const reader = await createTestUser({ scopes: ["content:read"] });
    const refused = await content.create(reader.key, { body: "x" });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, "insufficient_scope");
    assert.equal((await content.list(reader.key)).status, 200);
  });
});
