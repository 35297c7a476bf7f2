import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { POST as addEntry } from "@/app/api/v1/dictionary/add/route.ts";
import { GET as getTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { resetRecognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { setUpTestDatabase, testDbKind } from "../support/database.ts";
import { createTestUser } from "../support/factories.ts";
import { withEnv } from "../support/env.ts";
import { withOwnTmpdir } from "../support/own-tmpdir.ts";
import { call } from "../support/http.ts";
import { ffmpegFixture, JFK_MP3, JFK_OPENING_SECONDS, JFK_WAV, jfkOpening, jfkOpeningFile, silence } from "../support/audio.ts";

const WHISPER_TEST_MODEL = new URL("../fixtures/for-tests-ggml-tiny.en.bin", import.meta.url).pathname;

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
const database = setUpTestDatabase();

// Words PocketSphinx really recognizes in the decoded JFK sample: it hears "…and not … your …
// and when you can you … your country".
const HEARD = ["and", "not", "your", "country", "you"];

function form(audio: Buffer | null, fields: Record<string, string> = {}, fileField = "audio", filename = "note.bin") {
  const body = new FormData();
  if (audio) body.set(fileField, new Blob([new Uint8Array(audio)]), filename);
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return body;
}

const post = (key: string | undefined, body: BodyInit, headers: Record<string, string> = {}) =>
  call(transcribe, { method: "POST", path: "/transcribe", key, body, headers });

/** A well-formed 16 kHz mono 16-bit WAV with no samples. */
function emptyWav(): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16000, 24);
  header.writeUInt32LE(32000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(0, 40);
  return header;
}

// Audio handling does not depend on the database: run it in the PGlite pass only (the PostgreSQL
// pass still runs what touches the database: the stored dictionary and the keys).
const audioOnly = { skip: testDbKind === "postgres" ? "database-independent; runs in the PGlite pass" : false };

let key: string;
let jfk: Buffer;
// The first 3 s of jfk.wav: speech for the tests whose words do not matter (a third of the recognition time).
let opening: Buffer;
before(async () => {
  await database.ready;
  key = (await createTestUser()).key;
  jfk = await readFile(JFK_WAV);
  opening = await jfkOpening();
});

/** The opening re-encoded into another container/codec. */
const openingAs = async (name: string, codecArgs: string[]) => ffmpegFixture(name, ["-i", await jfkOpeningFile(), ...codecArgs]);

describe("POST /transcribe on real speech (PocketSphinx)", audioOnly, () => {
  test("jfk.wav: the words it really recognizes, with duration and engine", async () => {
    const res = await post(key, form(jfk));
    assert.equal(res.status, 200, res.text);
    for (const word of HEARD) assert.match(res.body.text, new RegExp(`\\b${word}\\b`), `"${word}" in "${res.body.text}"`);
    assert.equal(res.body.engine, "pocketsphinx");
    assert.ok(Math.abs(res.body.duration - 11) < 0.2, `duration ${res.body.duration}`);
    assert.equal(res.body.segments, undefined, "segments only with verbose_json");
    assert.ok(res.headers.get("x-request-id"));
  });

  // Each format holds the opening 3 s, "And so my fellow Americans" (the mp3 is cut from jfk.mp3 without
  // re-encoding): whole (its duration) and decoded to speech (PocketSphinx hears "and i got my …", "and then
  // our my …": four words or more, the first "and"), at a third of the recognition time of the whole sample.
  const formats: Array<[string, () => Promise<Buffer>]> = [
    ["mp3", () => ffmpegFixture("opening.mp3", ["-i", JFK_MP3, "-t", String(JFK_OPENING_SECONDS), "-c", "copy"])],
    ["m4a (AAC in MP4)", () => openingAs("opening.m4a", ["-c:a", "aac", "-b:a", "64k"])],
    ["aac (ADTS)", () => openingAs("opening.aac", ["-c:a", "aac", "-b:a", "64k", "-f", "adts"])],
    ["ogg/opus", () => openingAs("opening.ogg", ["-c:a", "libopus", "-b:a", "32k"])],
    ["webm/opus", () => openingAs("opening.webm", ["-c:a", "libopus", "-b:a", "32k", "-f", "webm"])],
    ["flac", () => openingAs("opening.flac", ["-c:a", "flac"])],
    ["wav at 44.1 kHz stereo", () => openingAs("opening-44k.wav", ["-ar", "44100", "-ac", "2"])],
  ];
  for (const [name, make] of formats) {
    test(`${name} is detected from its bytes and transcribed`, async () => {
      // A misleading file name proves the name is not what decides.
      const res = await post(key, form(await make(), {}, "audio", "recording.txt"));
      assert.equal(res.status, 200, res.text);
      assert.ok(Math.abs(res.body.duration - JFK_OPENING_SECONDS) < 0.15, `duration ${res.body.duration}`);
      assert.match(res.body.text, /^and( [a-z']+){3,}$/, `the opening's speech heard: "${res.body.text}"`);
    });
  }

  test("response formats: text, srt, vtt, verbose_json", async () => {
    const text = await post(key, form(jfk, { response_format: "text" }));
    assert.equal(text.status, 200);
    assert.match(text.headers.get("content-type")!, /^text\/plain/);
    assert.match(text.text, /country/);
    const srt = await post(key, form(opening, { response_format: "srt" }));
    assert.match(srt.text, /^1\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}\n/);
    const vtt = await post(key, form(opening, { response_format: "vtt" }));
    assert.match(vtt.text, /^WEBVTT\n\n00:00:\d\d\.\d{3} --> /);
    const verbose = await post(key, form(jfk, { response_format: "verbose_json" }));
    assert.ok(verbose.body.segments.length >= 2);
    for (const s of verbose.body.segments) assert.ok(s.start < s.end && s.end <= 11.1 && typeof s.text === "string");
  });
});

describe("the dictionary corrects the transcript", () => {
  test("stored entries apply; the request's dict wins over them", async () => {
    const user = await createTestUser();
    const stored = await call(addEntry, {
      method: "POST",
      path: "/api/v1/dictionary/add",
      key: user.key,
      json: { misspelling: "country", correct_spelling: "Nation" },
    });
    assert.equal(stored.status, 201);
    const withStored = await post(user.key, form(jfk));
    assert.match(withStored.body.text, /\bNation\b/);
    assert.doesNotMatch(withStored.body.text, /\bcountry\b/);
    assert.ok(withStored.body.dictionary_replacements >= 1);

    const dict = JSON.stringify([{ misspelling: "Country", correct_spelling: "Homeland" }, { misspelling: "and not", correct_spelling: "And Not" }]);
    const withRequest = await post(user.key, form(jfk, { dict, response_format: "verbose_json" }));
    assert.match(withRequest.body.text, /\bHomeland\b/);
    assert.match(withRequest.body.text, /And Not/);
    assert.doesNotMatch(withRequest.body.text, /Nation/);
    assert.ok(withRequest.body.segments.some((s: { text: string }) => s.text.includes("Homeland")), "segments are corrected too");
    // Another user's dictionary never applies.
    const other = await post(key, form(jfk));
    assert.doesNotMatch(other.body.text, /Nation/);
  });
});

describe("stored transcriptions and Idempotency-Key", () => {
  const read = (k: string, id: string) =>
    call(getTranscription, { path: `/api/v1/transcriptions/${id}`, key: k, params: { id } });

  test("every result is stored; GET returns it with segments, only to its owner", async () => {
    const owner = await createTestUser();
    const res = await post(owner.key, form(opening));
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.id, /^[0-9a-f-]{36}$/);
    assert.equal(res.headers.get("x-transcription-id"), res.body.id);
    const stored = await read(owner.key, res.body.id);
    assert.equal(stored.status, 200);
    assert.equal(stored.body.text, res.body.text);
    assert.equal(stored.body.created_at, res.body.created_at);
    assert.ok(stored.body.segments.length >= 1);
    assert.equal(stored.body.segments.map((s: { text: string }) => s.text).join(" "), stored.body.text, "the segments hold the text");
    const stranger = await createTestUser();
    assert.equal((await read(stranger.key, res.body.id)).status, 404);
    assert.equal((await read(owner.key, "00000000-0000-0000-0000-000000000000")).body.error.code, "not_found");
    assert.equal((await read("", res.body.id)).status, 401);
  });

  test("same key and recording → the first result, without transcribing again; different → 409", async () => {
    const user = await createTestUser();
    const headers = { "idempotency-key": "note-2026-11-22-0001" };
    const first = await post(user.key, form(opening, { prompt: "inaugural" }), headers);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers.get("idempotent-replayed"), null);
    // With no recognizer available, only a replay can succeed: proof that it does not transcribe again.
    let again: Awaited<ReturnType<typeof post>> | undefined;
    await withEnv({ POCKETSPHINX_MODEL_DIR: "/nonexistent" }, async () => {
      again = await post(user.key, form(opening, { prompt: "inaugural" }), headers);
    })();
    assert.equal(again!.status, 200, again!.text);
    assert.equal(again!.body.id, first.body.id);
    assert.equal(again!.headers.get("idempotent-replayed"), "true");
    const otherPrompt = await post(user.key, form(opening, { prompt: "something else" }), headers);
    assert.equal(otherPrompt.status, 409);
    assert.equal(otherPrompt.body.error.code, "idempotency_conflict");
    const otherAudio = await post(user.key, form(await silence(1)), headers);
    assert.equal(otherAudio.status, 409);
    // Keys are per user: another user may use the same key.
    const other = await createTestUser();
    const theirs = await post(other.key, form(opening, { prompt: "inaugural" }), headers);
    assert.equal(theirs.status, 200);
    assert.notEqual(theirs.body.id, first.body.id);
    const bad = await post(user.key, form(opening), { "idempotency-key": "has spaces in it" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, "validation_failed");
  });

  test("concurrent retries with one key store one transcription", async () => {
    const user = await createTestUser();
    const headers = { "idempotency-key": "concurrent-retry-key" };
    const results = await Promise.all([1, 2, 3].map(() => post(user.key, form(opening), headers)));
    for (const r of results) assert.equal(r.status, 200, r.text);
    assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
  });
});

describe("bad requests get a clear 4xx", audioOnly, () => {
  test("`file` instead of `audio` → 400 that says to use audio", async () => {
    const res = await post(key, form(jfk, {}, "file"));
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, "missing_audio");
    assert.match(res.body.error.message, /"audio"/);
    const none = await post(key, form(null, { prompt: "hi" }));
    assert.equal(none.status, 400);
    assert.equal(none.body.error.code, "missing_audio");
  });

  test("bad dict: malformed JSON, wrong shapes", async () => {
    for (const dict of ["[{", '{"misspelling":"a"}', '[{"misspelling":"a"}]', '[{"misspelling":"a","correct_spelling":"b","x":1}]', "[1]", '[{"misspelling":"a\\ud800","correct_spelling":"b"}]', '[{"misspelling":"a","correct_spelling":"b\\u0000"}]']) {
      const res = await post(key, form(jfk, { dict }));
      assert.equal(res.status, 400, dict);
      assert.equal(res.body.error.code, "validation_failed", dict);
      assert.ok(res.body.error.details.some((d: { path: string }) => d.path.startsWith("dict")), dict);
    }
  });

  test("unknown fields, bad response_format, over-long prompt", async () => {
    const cases: Record<string, string>[] = [{ colour: "red" }, { response_format: "xml" }, { prompt: "x".repeat(2001) }, { language: "English" }];
    for (const fields of cases) {
      const res = await post(key, form(jfk, fields));
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.equal(res.body.error.code, "validation_failed");
    }
  });

  test("wrong content type → 415; not multipart at all", async () => {
    const res = await post(key, JSON.stringify({ audio: "x" }), { "content-type": "application/json" });
    assert.equal(res.status, 415);
    assert.equal(res.body.error.code, "unsupported_media_type");
    assert.match(res.body.error.message, /multipart\/form-data/);
    const broken = await post(key, "--xyz\r\nnonsense", { "content-type": "multipart/form-data; boundary=xyz" });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error.code, "invalid_multipart");
  });

  test("empty, non-audio, corrupt and silent uploads", async () => {
    const cases: Array<[string, Buffer, number, string]> = [
      ["empty", Buffer.alloc(0), 422, "empty_audio"],
      ["text", Buffer.from("hello, this is not audio at all ".repeat(20)), 415, "unsupported_audio"],
      ["random", Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)), 415, "unsupported_audio"],
      ["truncated mp3", (await readFile(JFK_MP3)).subarray(0, 400), 422, "unreadable_audio"],
      ["garbage after an ID3 tag", Buffer.concat([Buffer.from("ID3\x04\0\0\0\0\0\x10", "latin1"), Buffer.alloc(3000, 0x5a)]), 415, "unsupported_audio"],
      ["wav without samples", emptyWav(), 422, "empty_audio"],
      ["corrupt flac", Buffer.concat([Buffer.from("fLaC"), Buffer.alloc(2000, 0x55)]), 422, "unreadable_audio"],
      ["silence", await silence(3), 422, "no_speech"],
    ];
    for (const [name, bytes, status, code] of cases) {
      const res = await post(key, form(bytes));
      assert.equal(res.status, status, `${name}: ${res.text}`);
      assert.equal(res.body.error.code, code, name);
    }
  });

  test(
    "oversized upload → 413 naming the limit",
    withEnv({ MAX_UPLOAD_BYTES: String(100 * 1024) }, async () => {
      const res = await post(key, form(jfk));
      assert.equal(res.status, 413);
      assert.equal(res.body.error.code, "payload_too_large");
      assert.match(res.body.error.message, /0\.1 MB/);
    }),
  );

  test(
    "too long → 413 naming the limit",
    withEnv({ MAX_AUDIO_SECONDS: "5" }, async () => {
      const res = await post(key, form(jfk));
      assert.equal(res.status, 413);
      assert.equal(res.body.error.code, "audio_too_long");
      assert.match(res.body.error.message, /5 s/);
    }),
  );

  test("no key → 401; a key without the transcribe scope → 403", async () => {
    const none = await post(undefined, form(jfk));
    assert.equal(none.status, 401);
    assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
    const dictOnly = await createTestUser({ scopes: ["dictionary:read"] });
    const res = await post(dictOnly.key, form(jfk));
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, "insufficient_scope");
  });

  test(
    "no recognizer installed → 503 engine_unavailable that says how to install one",
    withEnv({ POCKETSPHINX_MODEL_DIR: "/nonexistent" }, async () => {
      const res = await post(key, form(jfk));
      assert.equal(res.status, 503);
      assert.equal(res.body.error.code, "engine_unavailable");
      assert.match(res.body.error.message, /apt-get install pocketsphinx/);
    }),
  );

  test(
    "whisper through the whole pipeline on whisper.cpp's empty test model (loads, runs, returns no words)",
    withEnv({ TRANSCRIBE_ENGINE: "whisper", WHISPER_MODEL: WHISPER_TEST_MODEL }, async () => {
      const res = await post(key, form(jfk, { prompt: "Kennedy inaugural address", response_format: "verbose_json" }));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.engine, "whisper");
      assert.equal(typeof res.body.text, "string");
      assert.ok(Math.abs(res.body.duration - 11) < 0.2);
    }),
  );

  test(
    "whisper without a model → 503 engine_unavailable that says how to get one",
    withEnv({ TRANSCRIBE_ENGINE: "whisper", WHISPER_MODEL: "", MODELS_DIR: "/nonexistent" }, async () => {
      const res = await post(key, form(jfk));
      assert.equal(res.status, 503);
      assert.equal(res.body.error.code, "engine_unavailable");
      assert.match(res.body.error.message, /model:download/);
    }),
  );

  test("another language than English on PocketSphinx → 422 language_unsupported naming what to install, before decoding", async () => {
    const res = await post(key, form(jfk, { language: "de" }));
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.error.code, "language_unsupported");
    assert.match(res.body.error.message, /model:download/);
    assert.equal(res.body.error.details[0].path, "language");
    const english = await post(key, form(opening, { language: "en" }));
    assert.equal(english.status, 200, english.text);
  });

  test(
    "an English-only whisper model refuses another language the same way",
    withEnv({ TRANSCRIBE_ENGINE: "whisper", WHISPER_MODEL: WHISPER_TEST_MODEL }, async () => {
      const res = await post(key, form(jfk, { language: "fr" }));
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.error.code, "language_unsupported");
      assert.match(res.body.error.message, /English-only/);
    }),
  );

  test("temporary files are always removed", () =>
    withOwnTmpdir(async (uploadDirsLeft) => {
      await post(key, form(opening));
      await post(key, form(Buffer.from("not audio")));
      await post(key, form(opening, { dict: "[" }));
      assert.deepEqual(await uploadDirsLeft(), []);
    }));
});

after(() => resetRecognitionEngine());
