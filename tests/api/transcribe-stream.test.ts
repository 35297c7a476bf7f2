import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import OpenAI, { toFile } from "openai";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { POST as openAiTranscriptions } from "@/app/v1/audio/transcriptions/route.ts";
import { GET as getTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { db } from "@/lib/db/client.ts";
import { recognitionEngine, resetRecognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { EngineBusyError, type RecognitionEngine } from "@/lib/transcription/recognizers/types.ts";
import { setUpTestDatabase, testDbKind } from "../support/database.ts";
import { createTestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";
import { JFK_WAV, jfkOpening, silence } from "../support/audio.ts";
import { startRouteServer } from "../support/processes.ts";
import { sseFrames } from "../support/sse.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
const database = setUpTestDatabase();
// The SDK's peer server and the audio-only cases do not depend on the database: PGlite pass only.
const once = { skip: testDbKind === "postgres" ? "database-independent; runs in the PGlite pass" : false };

type Sse = { comments: string[]; events: any[]; contentType: string | null; status: number; requestId: string | null };

/** Reads a text/event-stream response to its end the way an SSE client does. */
async function readSse(res: Response): Promise<Sse> {
  const comments: string[] = [];
  const events: any[] = [];
  for await (const frame of sseFrames(res.body!)) {
    assert.deepEqual(frame.other, [], "only comments and data lines");
    comments.push(...frame.comments);
    if (frame.data !== null) events.push(JSON.parse(frame.data));
  }
  return { comments, events, contentType: res.headers.get("content-type"), status: res.status, requestId: res.headers.get("x-request-id") };
}

/** Calls a route handler as Next does and returns its Response unread (call() would read it whole). */
function send(handler: typeof transcribe, path: string, key: string, body: FormData, headers: Record<string, string> = {}) {
  const req = new Request(`http://localhost${path}`, { method: "POST", body, headers: { authorization: `Bearer ${key}`, ...headers } });
  return handler(req, { params: Promise.resolve({}) });
}

function form(audio: Buffer, fields: Record<string, string> = {}, fileField = "audio") {
  const body = new FormData();
  body.set(fileField, new Blob([new Uint8Array(audio)]), "note.wav");
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return body;
}

const STREAM = { accept: "text/event-stream" };

/** Checks the order of a finished stream: deltas, then exactly one done (last); returns both. */
function deltasThenDone(sse: Sse): { text: string; done: any } {
  assert.equal(sse.status, 200);
  assert.equal(sse.contentType, "text/event-stream; charset=utf-8");
  const types = sse.events.map((e) => e.type);
  assert.ok(types.length >= 2, `deltas and done: ${JSON.stringify(sse.events).slice(0, 300)}`);
  assert.deepEqual(types, [...Array(types.length - 1).fill("transcript.text.delta"), "transcript.text.done"]);
  const done = sse.events.at(-1);
  return { text: sse.events.slice(0, -1).map((e) => e.delta).join(""), done };
}

let jfk: Buffer;
let key: string;
before(async () => {
  await database.ready;
  jfk = await readFile(JFK_WAV);
  key = (await createTestUser()).key;
});
after(() => resetRecognitionEngine());

describe("POST /transcribe with Accept: text/event-stream", () => {
  let first: { text: string; done: any; sse: Sse };

  test("streams deltas that join to the text, then done with the whole JSON answer", async () => {
    const sse = await readSse(await send(transcribe, "/transcribe", key, form(jfk, { prompt: "inaugural" }), { ...STREAM, "idempotency-key": "stream-1" }));
    assert.equal(sse.comments[0], "keep-alive", "a comment goes out at once, before any text");
    const { text, done } = deltasThenDone(sse);
    assert.match(done.text, /\bcountry\b/);
    assert.equal(text, done.text);
    assert.ok(sse.requestId);
    const stored = await call(getTranscription, { path: `/api/v1/transcriptions/${done.id}`, key, params: { id: done.id } });
    assert.equal(stored.status, 200);
    assert.equal(stored.body.text, done.text);
    // The done event is the answer without a stream (response_format json): the same key replays that answer.
    const answer = await call(transcribe, { method: "POST", path: "/transcribe", key, body: form(jfk, { prompt: "inaugural" }), headers: { "idempotency-key": "stream-1" } });
    assert.equal(answer.headers.get("idempotent-replayed"), "true");
    const { type, ...rest } = done;
    assert.equal(type, "transcript.text.done");
    assert.deepEqual(rest, answer.body);
    assert.equal(done.optimizer_processing.optimizer_workflow_name, "transcript-optimization");
    assert.equal(done.optimization.status, "completed");
    assert.equal("segments" in done, false);
    first = { text, done, sse };
  });

  test("a retry with the same Idempotency-Key streams the replay: the whole text as one delta, then the same done", async () => {
    assert.ok(first, "needs the previous test");
    const sse = await readSse(await send(transcribe, "/transcribe", key, form(jfk, { prompt: "inaugural" }), { ...STREAM, "idempotency-key": "stream-1" }));
    const { done } = deltasThenDone(sse);
    assert.equal(sse.events.length, 2);
    assert.equal(sse.events[0].delta, first.done.text);
    assert.equal(done.id, first.done.id);
    assert.deepEqual(done, first.done);
  });

  test("verbose_json streams too (done carries the segments); text streams just text and id", async () => {
    assert.ok(first, "needs the first test");
    // Replays of the first recording (response_format is not part of what the key compares).
    const again = (response_format: string) =>
      send(transcribe, "/transcribe", key, form(jfk, { response_format, prompt: "inaugural" }), { ...STREAM, "idempotency-key": "stream-1" });
    const verbose = deltasThenDone(await readSse(await again("verbose_json")));
    assert.equal(verbose.done.id, first.done.id);
    assert.ok(verbose.done.segments.length >= 1);
    assert.equal(verbose.text, verbose.done.text);
    const plain = deltasThenDone(await readSse(await again("text")));
    assert.deepEqual(plain.done, { type: "transcript.text.done", text: first.done.text, id: first.done.id });
  });

  test("bad input is refused with a JSON 4xx before any stream: srt, an unknown field, not audio, an empty file", async () => {
    const cases: [FormData, number, string][] = [
      [form(jfk, { response_format: "srt" }), 400, "validation_failed"],
      [form(jfk, { response_format: "vtt" }), 400, "validation_failed"],
      [form(jfk, { stream: "true" }), 400, "validation_failed"],
      [form(Buffer.from("this is not audio at all, just some text")), 415, "unsupported_audio"],
      [form(Buffer.alloc(0)), 422, "empty_audio"],
    ];
    for (const [body, status, code] of cases) {
      const res = await send(transcribe, "/transcribe", key, body, STREAM);
      assert.equal(res.status, status, code);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      const error = (await res.json()).error;
      assert.equal(error.code, code);
      assert.equal(error.request_id, res.headers.get("x-request-id"));
    }
    const srt = await send(transcribe, "/transcribe", key, form(jfk, { response_format: "srt" }), STREAM);
    assert.match((await srt.json()).error.message, /srt cannot be streamed/);
    const malformedKey = await send(transcribe, "/transcribe", key, form(jfk), { ...STREAM, "idempotency-key": "é" });
    assert.equal(malformedKey.status, 400);
  });

  test("a silent recording fails after the stream began: an error event in the error shape, then the end", once, async () => {
    const sse = await readSse(await send(transcribe, "/transcribe", key, form(await silence(3)), STREAM));
    assert.equal(sse.status, 200);
    assert.equal(sse.contentType, "text/event-stream; charset=utf-8");
    assert.deepEqual(sse.events.map((e) => e.type), ["error"]);
    assert.equal(sse.events[0].error.code, "no_speech");
    assert.match(sse.events[0].error.message, /silent/);
    assert.equal(sse.events[0].error.request_id, sse.requestId);
    assert.equal(sse.events[0].error.status, 422);
  });

  test("a recognizer failure mid-stream is an error event (engine_busy; an unexpected one is internal_error), never a hang", async () => {
    const engine: RecognitionEngine = await recognitionEngine();
    const recognize = engine.recognize;
    try {
      engine.recognize = async () => {
        throw new EngineBusyError("The recognizer is busy; retry in 7 s.", 7);
      };
      const busy = await readSse(await send(transcribe, "/transcribe", key, form(jfk), STREAM));
      assert.deepEqual(busy.events.map((e) => [e.type, e.error?.code]), [["error", "engine_busy"]]);
      engine.recognize = async () => {
        throw new Error("the recognizer crashed");
      };
      const crash = await readSse(await send(transcribe, "/transcribe", key, form(jfk), STREAM));
      assert.deepEqual(crash.events.map((e) => [e.type, e.error?.code]), [["error", "internal_error"]]);
      assert.doesNotMatch(crash.events[0].error.message, /crashed/, "the detail goes to the log only");
    } finally {
      engine.recognize = recognize;
    }
  });

  test("a client that disconnects does not stop the work: a retry with the same key replays it", async () => {
    const user = await createTestUser();
    // Any speech will do: the first 3 s of the sample ("and then our my …" or "and i got my …" as heard).
    const opening = await jfkOpening();
    const res = await send(transcribe, "/transcribe", user.key, form(opening), { ...STREAM, "idempotency-key": "stream-gone" });
    const reader = res.body!.getReader();
    await reader.read(); // the first keep-alive comment
    // Gone once the request holds its key (the keep-alive may come first: on a loaded machine the
    // retry once claimed the key before it, did the work itself, and was no replay).
    const prisma = await db();
    const claimed = async () =>
      (await prisma.noteClaim.count({ where: { userId: user.id, idempotencyKey: "stream-gone" } })) +
      (await prisma.note.count({ where: { userId: user.id } }));
    for (const deadline = Date.now() + 30_000; !(await claimed()) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    await reader.cancel();
    // The retry waits for the first request's claim, then replays what it stored.
    const retry = await call(transcribe, { method: "POST", path: "/transcribe", key: user.key, body: form(opening), headers: { "idempotency-key": "stream-gone" } });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(await prisma.note.count({ where: { userId: user.id } }), 1, "one recognition, stored");
    assert.equal(retry.headers.get("idempotent-replayed"), "true");
    assert.match(retry.body.text, /^and\b/);
  });
});

describe("POST /v1/audio/transcriptions with stream=true", () => {
  test("raw SSE in OpenAI's shapes: deltas, then done with text and id", async () => {
    const sse = await readSse(
      await send(openAiTranscriptions, "/v1/audio/transcriptions", key, form(jfk, { model: "whisper-1", stream: "true" }, "file"), { "idempotency-key": "openai-1" }),
    );
    const { text, done } = deltasThenDone(sse);
    assert.deepEqual(Object.keys(done), ["type", "text", "id"]);
    assert.equal(text, done.text);
    assert.match(done.text, /\bcountry\b/);
    for (const delta of sse.events.slice(0, -1)) assert.deepEqual(Object.keys(delta), ["type", "delta"]);
  });

  test("stream=false answers JSON; a bad stream value or a format that cannot stream is a JSON 400", async () => {
    // A replay of the streamed request above, as JSON.
    const plain = await send(openAiTranscriptions, "/v1/audio/transcriptions", key, form(jfk, { model: "whisper-1", stream: "false" }, "file"), { "idempotency-key": "openai-1" });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(Object.keys(await plain.json()), ["text"]);
    const refused: Record<string, string>[] = [{ stream: "yes" }, { stream: "true", response_format: "verbose_json" }, { stream: "true", response_format: "srt" }];
    for (const fields of refused) {
      const res = await send(openAiTranscriptions, "/v1/audio/transcriptions", key, form(jfk, { model: "whisper-1", ...fields }, "file"));
      assert.equal(res.status, 400, JSON.stringify(fields));
      const error = (await res.json()).error;
      assert.equal(error.code, "validation_failed");
      assert.ok(["stream", "response_format"].includes(error.details[0].path), JSON.stringify(error));
    }
  });
});

describe("the official openai SDK streaming against a real HTTP server", once, () => {
  let peer: { url: string; stop(): Promise<void> };
  before(async () => {
    if (once.skip) return;
    await database.ready;
    peer = await startRouteServer({ DATABASE_URL: database.url(), TRANSCRIBE_ENGINE: "pocketsphinx" });
  });
  after(() => peer?.stop());

  test("client.audio.transcriptions.create({ stream: true }) yields deltas and done", async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${peer.url}/v1`, maxRetries: 0 });
    const stream = await client.audio.transcriptions.create({ file: createReadStream(JFK_WAV), model: "gpt-4o-transcribe", stream: true });
    const events: OpenAI.Audio.TranscriptionStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const done = events.at(-1);
    assert.equal(done?.type, "transcript.text.done");
    const deltas = events.slice(0, -1);
    assert.ok(deltas.length >= 1 && deltas.every((e) => e.type === "transcript.text.delta"));
    assert.equal(deltas.map((e) => (e.type === "transcript.text.delta" ? e.delta : "")).join(""), done.text);
    assert.match(done.text, /\bcountry\b/);
  });

  test("an error after the stream began reaches the SDK as an APIError with our code", async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${peer.url}/v1`, maxRetries: 0 });
    const stream = await client.audio.transcriptions.create({
      file: await toFile(await silence(2), "silence.wav"),
      model: "whisper-1",
      stream: true,
    });
    await assert.rejects(
      (async () => {
        for await (const _event of stream) void _event;
      })(),
      (err: unknown) => err instanceof OpenAI.APIError && err.code === "no_speech" && /silent/.test(err.message),
    );
  });

  test("bad input is a normal SDK error before streaming (400 for response_format srt)", async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${peer.url}/v1`, maxRetries: 0 });
    await assert.rejects(
      client.audio.transcriptions.create({ file: createReadStream(JFK_WAV), model: "whisper-1", stream: true, response_format: "srt" } as never),
      (err: unknown) => err instanceof OpenAI.BadRequestError && /cannot be streamed/.test(err.message),
    );
  });
});
