import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { before, describe, test } from "node:test";
import { GET as getSettings, PATCH as updateSettings } from "@/app/api/v1/settings/route.ts";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { env } from "@/lib/env.ts";
import { modelWantedFor } from "@/lib/transcription/recognizers/model-for-language.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";
import { jfkOpening } from "../support/audio.ts";

// Issue 25: the language is a per-user setting; uploads without one are recognized in it, and a
// recognizer that cannot do it refuses plainly (never English words for German speech).

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
process.env.OPTIMIZER = "off";
const database = setUpTestDatabase();

let user: TestUser;
// The first 3 s of jfk.wav: English speech (the words do not matter here).
let speech: Buffer;
before(async () => {
  await database.ready;
  user = await createTestUser();
  speech = await jfkOpening();
});

const read = (u: TestUser) => call(getSettings, { path: "/api/v1/settings", key: u.key });
const change = (u: TestUser, json: unknown) => call(updateSettings, { method: "PATCH", path: "/api/v1/settings", key: u.key, json });
function upload(u: TestUser, fields: Record<string, string> = {}) {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(speech)]), "opening.wav");
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return call(transcribe, { method: "POST", path: "/transcribe", key: u.key, body: body });
}

describe("GET/PATCH /api/v1/settings: the language of your recordings", () => {
  test("auto by default; what the recognizer knows is said", async () => {
    const res = await read(user);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.language, "auto");
    assert.deepEqual(res.body.recognizer.languages, ["en"]);
    assert.equal(res.body.recognizer.language_supported, true);
  });

  test("German on PocketSphinx: kept, said to be unsupported, and uploads without a language are 422 language_unsupported", async () => {
    const other = await createTestUser();
    const set = await change(other, { language: "de" });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.language, "de");
    assert.equal(set.body.recognizer.language_supported, false);
    assert.match(set.body.recognizer.hint, /whisper|model|install/i);
    assert.equal((await read(other)).body.language, "de");

    const refused = await upload(other);
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.error.code, "language_unsupported");
    // The request's own language wins over the setting.
    assert.equal((await upload(other, { language: "en", keep_audio: "false" })).status, 200);

    assert.equal((await change(other, { language: "auto" })).body.language, "auto");
    const heard = await upload(other, { keep_audio: "false" });
    assert.equal(heard.status, 200, heard.text);
    assert.equal(heard.body.language, "en");
  });

  test("bad settings are 400 with the field named", async () => {
    for (const body of [{ language: "German" }, { language: "" }, {}, { language: "de", theme: "dark" }]) {
      const res = await change(user, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, "validation_failed");
    }
  });
});

describe("the automatic download follows the language setting", () => {
  test("another language with no multilingual model wants `base`; English, detection and a multilingual model want none", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "vd-models-"));
    try {
      const config = { ...env(), TRANSCRIBE_ENGINE: "auto" as const, WHISPER_AUTO_DOWNLOAD: true, WHISPER_MODEL: undefined, MODELS_DIR: dir };
      assert.equal(modelWantedFor("de", config), "base");
      assert.equal(modelWantedFor("en", config), null);
      assert.equal(modelWantedFor(null, config), null);
      await writeFile(path.join(dir, "ggml-base.en.bin"), "x");
      assert.equal(modelWantedFor("ja", config), "base", "an English-only model does not do Japanese");
      await writeFile(path.join(dir, "ggml-base.bin"), "x");
      assert.equal(modelWantedFor("ja", config), null);
      assert.equal(modelWantedFor("de", { ...config, WHISPER_AUTO_DOWNLOAD: false }), null);
      assert.equal(modelWantedFor("de", { ...config, TRANSCRIBE_ENGINE: "pocketsphinx" }), null);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
