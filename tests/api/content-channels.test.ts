import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createTestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { content, createMaster, setUpContentTests } from "@/tests/api/content-support.ts";
import { GET as listChannels, POST as postChannel } from "@/app/api/v1/channels/route.ts";
import { DELETE as deleteChannel, GET as getChannel, PATCH as patchChannel } from "@/app/api/v1/channels/[id]/route.ts";
import { GET as listPresets, POST as postPreset } from "@/app/api/v1/presets/route.ts";
import { DELETE as deletePreset, GET as getPreset, PATCH as patchPreset } from "@/app/api/v1/presets/[id]/route.ts";

setUpContentTests({ workers: false });

const channelCall = (key: string, method: string, id: string, json?: unknown) => {
  const handler = { GET: getChannel, PATCH: patchChannel, DELETE: deleteChannel }[method]!;
  return call(handler, { method, path: `/api/v1/channels/${id}`, params: { id }, key, json });
};
const presetCall = (key: string, method: string, id: string, json?: unknown) => {
  const handler = { GET: getPreset, PATCH: patchPreset, DELETE: deletePreset }[method]!;
  return call(handler, { method, path: `/api/v1/presets/${id}`, params: { id }, key, json });
};

describe("channels", () => {
  test("create, list, read, update and delete", async () => {
    const { key } = await createTestUser();
    const created = await call(postChannel, { method: "POST", path: "/api/v1/channels", key, json: { platform: "bluesky", name: "  Sky  " } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual({ ...created.body.channel, id: undefined, created_at: undefined, updated_at: undefined }, {
      id: undefined, platform: "bluesky", name: "Sky", active: true, write_for_every_note: false, default_preset_id: "builtin-short", created_at: undefined, updated_at: undefined,
    });
    const id = created.body.channel.id;
    assert.deepEqual((await call(listChannels, { path: "/api/v1/channels", key })).body.channels.map((c: { id: string }) => c.id), [id]);
    const updated = await channelCall(key, "PATCH", id, { active: false, name: "Old sky" });
    assert.equal(updated.body.channel.active, false);
    assert.equal((await channelCall(key, "PATCH", id, { platform: "instagram" })).body.channel.default_preset_id, "builtin-caption");
    assert.equal((await channelCall(key, "GET", id)).body.channel.name, "Old sky");
    assert.equal((await channelCall(key, "DELETE", id)).body.deleted.id, id);
    assert.equal((await channelCall(key, "GET", id)).status, 404);
  });

  test("credentials and unknown platforms are refused with 400", async () => {
    const { key } = await createTestUser();
    for (const json of [
      { platform: "x", name: "X", access_token: "secret" },
      { platform: "x", name: "X", password: "hunter2" },
      { platform: "myspace", name: "M" },
      { platform: "x", name: "" },
      { platform: "x", name: "line\nbreak" },
    ]) {
      const res = await call(postChannel, { method: "POST", path: "/api/v1/channels", key, json });
      assert.equal(res.status, 400, JSON.stringify(json));
      assert.equal(res.body.error.code, "validation_failed");
    }
    assert.equal((await channelCall(key, "PATCH", "nope", {})).status, 400);
  });

  test("a channel with variants cannot be deleted (409 channel_in_use) but can be deactivated", async () => {
    const { key } = await createTestUser();
    const id = (await call(postChannel, { method: "POST", path: "/api/v1/channels", key, json: { platform: "x", name: "X" } })).body.channel.id;
    const master = await createMaster(key, "note");
    await content.variants(key, master.id, { client_request_id: "c", targets: [{ channel_id: id, preset_id: "builtin-short" }] });
    const refused = await channelCall(key, "DELETE", id);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, "channel_in_use");
    assert.equal((await channelCall(key, "PATCH", id, { active: false })).status, 200);
  });
});

describe("presets", () => {
  test("built-ins are listed for everyone and read-only", async () => {
    const { key } = await createTestUser();
    const presets = (await call(listPresets, { path: "/api/v1/presets", key })).body.presets;
    assert.deepEqual(
      presets.map((p: { id: string }) => p.id).sort(),
      ["builtin-article", "builtin-caption", "builtin-short", "builtin-standard", "builtin-thread"],
    );
    assert.equal((await presetCall(key, "GET", "builtin-thread")).body.preset.format, "thread");
    const patch = await presetCall(key, "PATCH", "builtin-thread", { name: "Mine now" });
    assert.equal(patch.status, 409);
    assert.equal(patch.body.error.code, "preset_read_only");
    assert.equal((await presetCall(key, "DELETE", "builtin-thread")).body.error.code, "preset_read_only");
  });

  test("your own presets: defaults, hashtags normalized, update, delete, in use", async () => {
    const { key } = await createTestUser();
    const created = await call(postPreset, { method: "POST", path: "/api/v1/presets", key, json: { name: "Tagged", hashtags: ["#postgres", "databases"] } });
    assert.equal(created.status, 201, created.text);
    const preset = created.body.preset;
    assert.deepEqual([preset.tone, preset.length, preset.format, preset.include_title, preset.built_in], ["neutral", "full", "single", false, false]);
    assert.deepEqual(preset.hashtags, ["postgres", "databases"]);
    assert.equal((await presetCall(key, "PATCH", preset.id, { format: "thread" })).body.preset.format, "thread");
    const bad = await call(postPreset, { method: "POST", path: "/api/v1/presets", key, json: { name: "Bad", hashtags: ["two words"] } });
    assert.equal(bad.status, 400);
    const master = await createMaster(key, "note");
    const channel = (await call(postChannel, { method: "POST", path: "/api/v1/channels", key, json: { platform: "x", name: "X" } })).body.channel.id;
    await content.variants(key, master.id, { client_request_id: "p", targets: [{ channel_id: channel, preset_id: preset.id }] });
    assert.equal((await presetCall(key, "DELETE", preset.id)).body.error.code, "preset_in_use");
    const spare = (await call(postPreset, { method: "POST", path: "/api/v1/presets", key, json: { name: "Spare" } })).body.preset.id;
    assert.equal((await presetCall(key, "DELETE", spare)).status, 200);
    assert.equal((await presetCall(key, "GET", spare)).status, 404);
  });
});

describe("names that display as something else", () => {
  // U+202E (right-to-left override) makes "‮txt.exe" read "exe.txt"; the isolates and marks likewise.
  const SPOOFS = ["My\u202Eelbat", "a\u2066b\u2069", "mark\u200Fed", "ar\u061Cabic", "em\u202Abed\u202C"];

  test("channel and preset names with bidirectional controls are refused (400, the field named)", async () => {
    const { key } = await createTestUser();
    for (const name of SPOOFS) {
      const channel = await call(postChannel, { method: "POST", path: "/api/v1/channels", key, json: { platform: "x", name } });
      assert.equal(channel.status, 400, name);
      assert.equal(channel.body.error.code, "validation_failed");
      assert.equal(channel.body.error.details[0].path, "name");
      const preset = await call(postPreset, { method: "POST", path: "/api/v1/presets", key, json: { name } });
      assert.equal(preset.status, 400, name);
      assert.equal(preset.body.error.details[0].path, "name");
    }
    assert.equal((await call(postChannel, { method: "POST", path: "/api/v1/channels", key, json: { platform: "x", name: "עברית and English" } })).status, 201, "right-to-left text itself is fine");
  });
});
