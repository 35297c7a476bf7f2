import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import OpenAI from "openai";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { resetEnvCache } from "@/lib/env.ts";
import { resetRecognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { setUpTestDatabase, testDbKind } from "../support/database.ts";
import { createTestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";
import { JFK_WAV, jfkOpeningFile } from "../support/audio.ts";
import { startRouteServer } from "../support/processes.ts";

const database = setUpTestDatabase();
// Nothing here depends on the kind of database: run it in the PGlite pass only.
const once = { skip: testDbKind === "postgres" ? "database-independent; runs in the PGlite pass" : false };

// A real HTTP peer in its own process, recognizing with PocketSphinx, on this test's database.
let peer: { url: string; stop(): Promise<void> };
let key: string;
before(async () => {
  if (once.skip) return;
  await database.ready;
  key = (await createTestUser()).key;
  peer = await startRouteServer({ DATABASE_URL: database.url(), TRANSCRIBE_ENGINE: "pocketsphinx" });
});
after(async () => {
  await peer?.stop();
  await resetRecognitionEngine();
});

describe("POST /v1/audio/transcriptions with the official openai SDK", once, () => {
  test("json and verbose_json, as OpenAI clients expect them", async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${peer.url}/v1`, maxRetries: 0 });
    const plain = await client.audio.transcriptions.create({ file: createReadStream(JFK_WAV), model: "whisper-1" });
    assert.match(plain.text, /\bcountry\b/);
    assert.deepEqual(Object.keys(plain), ["text"]);
    const verbose = await client.audio.transcriptions.create({
      file: createReadStream(JFK_WAV),
      model: "whisper-1",
      response_format: "verbose_json",
      language: "en",
    });
    assert.equal(verbose.language, "en");
    assert.ok(Math.abs(verbose.duration - 11) < 0.2);
    assert.ok(verbose.segments!.length >= 2);
    assert.equal(verbose.segments![0].id, 0);
    // Any speech makes cues: the first 3 s of the sample.
    const srt = await client.audio.transcriptions.create({ file: createReadStream(await jfkOpeningFile()), model: "whisper-1", response_format: "srt" });
    assert.match(String(srt), /-->/);
  });

  test("the SDK sees our errors: a bad key is an AuthenticationError, a missing model a 400", async () => {
    const wrong = new OpenAI({ apiKey: "vd_" + "x".repeat(43), baseURL: `${peer.url}/v1`, maxRetries: 0 });
    await assert.rejects(
      wrong.audio.transcriptions.create({ file: createReadStream(JFK_WAV), model: "whisper-1" }),
      (err: unknown) => err instanceof OpenAI.AuthenticationError && err.status === 401,
    );
    const client = new OpenAI({ apiKey: key, baseURL: `${peer.url}/v1`, maxRetries: 0 });
    await assert.rejects(
      client.audio.transcriptions.create({ file: createReadStream(JFK_WAV) } as never),
      (err: unknown) => err instanceof OpenAI.BadRequestError && /model/.test(err.message),
    );
  });
});

describe("TRANSCRIBE_ENGINE=openai, against the peer as its OpenAI-compatible server", once, () => {
  const useOpenAiEngine = async (apiKey: string) => {
    Object.assign(process.env, { TRANSCRIBE_ENGINE: "openai", OPENAI_BASE_URL: `${peer.url}/v1`, OPENAI_API_KEY: apiKey });
    resetEnvCache();
    await resetRecognitionEngine();
  };

  test("transcribes through the remote server and applies this user's dictionary", async () => {
    await useOpenAiEngine(key);
    const user = await createTestUser();
    const body = new FormData();
    body.set("audio", new Blob([new Uint8Array(await readFile(JFK_WAV))]), "jfk.wav");
    body.set("dict", JSON.stringify([{ misspelling: "country", correct_spelling: "Republic" }]));
    body.set("response_format", "verbose_json");
    const res = await call(transcribe, { method: "POST", path: "/transcribe", key: user.key, body });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.engine, "openai");
    assert.match(res.body.text, /\bRepublic\b/);
    assert.ok(res.body.segments.length >= 2);
  });

  test("a server that refuses the key → 503 engine_unavailable naming OPENAI_API_KEY", async () => {
    await useOpenAiEngine("vd_" + "y".repeat(43));
    const body = new FormData();
    body.set("audio", new Blob([new Uint8Array(await readFile(JFK_WAV))]), "jfk.wav");
    const res = await call(transcribe, { method: "POST", path: "/transcribe", key, body });
    assert.equal(res.status, 503);
    assert.equal(res.body.error.code, "engine_unavailable");
    assert.match(res.body.error.message, /OPENAI_API_KEY/);
  });
});
