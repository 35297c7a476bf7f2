import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import {
  AuthenticationError,
  ConflictError,
  IdempotencyConflictError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  Voicedraft,
  type TranscriptionResult,
} from "../dist/index.js";
import { startFaultProxy } from "./fault-proxy.ts";
import { getService, JFK_WAV, type Service } from "./service.ts";

// PocketSphinx's reading of the JFK speech; "country" is the word it reliably gets right.
const COUNTRY = /\bcountry\b/i;

describe("transcribe", () => {
  let service: Service;
  let client: Voicedraft;
  let jfk: Buffer;
  let fromPath: TranscriptionResult;
  before(async () => {
    service = await getService();
    client = new Voicedraft({ baseUrl: service.baseUrl, apiKey: service.apiKey });
    jfk = await readFile(JFK_WAV);
    fromPath = await client.transcribe(JFK_WAV, { dict: [{ misspelling: "country", correct_spelling: "Nation" }] });
  });

  test("from a path, with a request dictionary: the documented result", async () => {
    assert.match(fromPath.id, /\S/);
    assert.match(fromPath.text, /\bNation\b/, "the request's dict was applied");
    assert.ok(fromPath.dictionary_replacements >= 1);
    assert.ok(fromPath.duration > 10 && fromPath.duration < 12, `duration ${fromPath.duration}`);
    assert.equal(fromPath.engine, "pocketsphinx");
    assert.equal(typeof fromPath.optimizer_processing, "object", "optimizer_processing is present (optimization is on)");
    assert.ok(fromPath.optimization, "the optimization status is present");
    assert.ok(["pending", "running", "completed", "failed"].includes(fromPath.optimization.status));
    // The test service optimizes recordings over 5 s in the background, so there is something to wait for.
    assert.equal(fromPath.optimization.mode, "background");
  });

  test("waitForOptimization polls until the background optimization has finished", async () => {
    const done = await client.waitForOptimization(fromPath, { timeout: 120_000, interval: 500 });
    assert.equal(done.id, fromPath.id);
    assert.equal(done.optimization?.status, "completed", JSON.stringify(done.optimization));
    assert.equal(typeof done.optimization?.text, "string");
    assert.ok(done.optimization!.progress.chunks_done >= 1);
    assert.equal(done.optimization!.progress.chunks_done, done.optimization!.progress.chunks_total);
  });

  test("notes.update suggests dictionary entries from the edit; notes.getDictionarySuggestions from every change", async () => {
    const fresh = await client.transcribe(new Uint8Array(jfk));
    assert.match(fresh.text, COUNTRY);
    const edited = await client.notes.update(fresh.id, { text: fresh.text.replace(/\bcountry\b/gi, "Kuntry") });
    const fromEdit = edited.dictionary_suggestions.find((s) => s.correct_spelling === "Kuntry");
    assert.equal(fromEdit?.misspelling, "country", JSON.stringify(edited.dictionary_suggestions));
    assert.ok(fromEdit!.occurrences >= 1);
    const all = (await client.notes.getDictionarySuggestions(fresh.id)).dictionary_suggestions;
    assert.ok(all.some((s) => s.misspelling === "country" && s.correct_spelling === "Kuntry"), JSON.stringify(all));
    assert.ok((await client.notes.getDictionarySuggestions(fresh.id, { limit: 1 })).dictionary_suggestions.length <= 1);
    await assert.rejects(client.notes.getDictionarySuggestions("no-such-id"), NotFoundError);
  });

  test("a recording in parts: notes.getRecording joins them in order", async () => {
    const id = `js-sdk-${Date.now()}`;
    const second = await client.transcribe(new Uint8Array(jfk), { recording: { id, part: 1 } });
    const first = await client.transcribe(new Uint8Array(jfk), { recording: { id, part: 0 }, prompt: "part one" });
    assert.deepEqual(first.recording, { id, part: 0 });
    const recording = await client.notes.getRecording(id);
    assert.deepEqual(recording.parts.map((p) => p.transcription_id), [first.id, second.id]);
    assert.equal(recording.parts_received, 2);
    assert.equal(recording.text, `${first.text} ${second.text}`);
    await assert.rejects(client.notes.getRecording(`${id}-missing`), NotFoundError);
  });

  test("from bytes, a Blob and a Node stream, with segments; notes.get reads it again", async () => {
    const fromBytes = await client.transcribe(new Uint8Array(jfk), { segments: true, prompt: "ask not" });
    assert.match(fromBytes.text, COUNTRY);
    assert.ok(fromBytes.segments && fromBytes.segments.length > 0);
    assert.ok(fromBytes.segments.every((s) => s.end >= s.start));

    const fromBlob = await client.transcribe(new Blob([new Uint8Array(jfk)]), { filename: "jfk.wav" });
    assert.match(fromBlob.text, COUNTRY);

    const fromStream = await client.transcribe(createReadStream(JFK_WAV));
    assert.match(fromStream.text, COUNTRY);

    const again = await client.notes.get(fromStream.id);
    assert.equal(again.id, fromStream.id);
    assert.equal(again.text, fromStream.text);
  });

  test("notes.list pages newest first; notes.update replaces the text, refusing a stale updated_at", async () => {
    const page = await client.notes.list({ limit: 1 });
    assert.equal(page.transcriptions.length, 1);
    assert.ok(page.next_cursor, "there are older ones");
    const older = await client.notes.list({ limit: 100, cursor: page.next_cursor! });
    assert.ok(![...older.transcriptions].some((t) => t.id === page.transcriptions[0].id));
    assert.ok(older.transcriptions.some((t) => t.id === fromPath.id) || page.transcriptions[0].id === fromPath.id);

    const current = await client.notes.get(fromPath.id);
    const edited = await client.notes.update(fromPath.id, { text: "Ask not.", updated_at: current.updated_at });
    assert.equal(edited.text, "Ask not.");
    assert.equal((await client.notes.get(fromPath.id)).text, "Ask not.");
    const stale = await client.notes.update(fromPath.id, { text: "x", updated_at: current.updated_at }).catch((e: unknown) => e);
    assert.ok(stale instanceof ConflictError, String(stale));
    assert.equal(stale.code, "edit_conflict");
  });

  test("another user's transcription is NotFoundError; a bad key is AuthenticationError", async () => {
    const other = new Voicedraft({ baseUrl: service.baseUrl, apiKey: service.otherApiKey });
    const error = await other.notes.get(fromPath.id).catch((err: unknown) => err);
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.code, "not_found");
    await assert.rejects(client.notes.get("no-such-id"), NotFoundError);
    const stranger = new Voicedraft({ baseUrl: service.baseUrl, apiKey: "vd_wrong" });
    await assert.rejects(stranger.transcribe(jfk), AuthenticationError);
  });

  test("an upload over the service's limit is PayloadTooLargeError (413), not retried", async () => {
    const big = new Uint8Array(service.maxUploadBytes + 1024 * 1024);
    big.set(jfk);
    const proxy = await startFaultProxy(service.baseUrl);
    after(() => proxy.close());
    const viaProxy = new Voicedraft({ baseUrl: proxy.url, apiKey: service.apiKey });
    const error = await viaProxy.transcribe(big).catch((err: unknown) => err);
    assert.ok(error instanceof PayloadTooLargeError, String(error));
    assert.equal(error.status, 413);
    assert.equal(error.code, "payload_too_large");
    assert.equal(proxy.seen.length, 1);
  });

  test("not audio is UnsupportedMediaTypeError (415)", async () => {
    const error = await client.transcribe(new TextEncoder().encode("hello, not audio")).catch((err: unknown) => err);
    assert.ok(error instanceof UnsupportedMediaTypeError, String(error));
    assert.equal(error.code, "unsupported_audio");
  });

  test("the same idempotency key with other audio is IdempotencyConflictError (409)", async () => {
    const idempotencyKey = `sdk-js-${Date.now()}`;
    const first = await client.transcribe(jfk, { idempotencyKey });
    const replay = await client.transcribe(jfk, { idempotencyKey });
    assert.equal(replay.id, first.id, "the same key and audio replay the first result");
    const error = await client.transcribe(jfk.subarray(0, jfk.length - 32000), { idempotencyKey }).catch((err: unknown) => err);
    assert.ok(error instanceof IdempotencyConflictError, String(error));
    assert.equal(error.status, 409);
    assert.equal(error.code, "idempotency_conflict");
    assert.ok(error.requestId);
  });

  test("a lost response is retried with the same Idempotency-Key and replays the first result", async () => {
    const proxy = await startFaultProxy(service.baseUrl);
    after(() => proxy.close());
    const viaProxy = new Voicedraft({ baseUrl: proxy.url, apiKey: service.apiKey });
    proxy.fail("lose-response", { status: 503, retryAfter: "0" });
    const result = await viaProxy.transcribe(jfk);
    assert.match(result.text, COUNTRY);
    assert.equal(proxy.seen.length, 3);
    const keys = proxy.seen.map((r) => r.headers["idempotency-key"]);
    assert.ok(keys[0], "an Idempotency-Key was sent");
    assert.deepEqual(keys, [keys[0], keys[0], keys[0]]);
    assert.equal(proxy.seen[0].answer?.["idempotent-replayed"], undefined, "the first attempt transcribed");
    assert.equal(proxy.seen[2].answer?.["idempotent-replayed"], "true", "the retry replayed it");
    // The service did the first attempt's work; the final answer is that same transcription.
    const all = await client.notes.get(result.id);
    assert.equal(all.id, result.id);
  });
});
