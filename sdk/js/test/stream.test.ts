import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { before, describe, test } from "node:test";
import { ConnectionError, UnprocessableError, UnsupportedMediaTypeError, Voicedraft, type TranscriptStreamEvent } from "../dist/index.js";
import { getService, JFK_WAV, type Service } from "./service.ts";

/** `seconds` of 16 kHz mono 16-bit silence as a WAV file. */
function silentWav(seconds: number): Uint8Array {
  const samples = 16_000 * seconds;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVEfmt ", 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(16_000, 24);
  wav.writeUInt32LE(32_000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36);
  wav.writeUInt32LE(samples * 2, 40);
  return new Uint8Array(wav);
}

async function collect(events: AsyncIterable<TranscriptStreamEvent>): Promise<TranscriptStreamEvent[]> {
  const all: TranscriptStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe("transcribeStream", () => {
  let service: Service;
  let client: Voicedraft;
  before(async () => {
    service = await getService();
    client = new Voicedraft({ baseUrl: service.baseUrl, apiKey: service.apiKey });
  });

  test("yields deltas that join to the text, then done with the whole result; the same key replays as a stream", async () => {
    const events = await collect(client.transcribeStream(JFK_WAV, { idempotencyKey: "sdk-js-stream-1" }));
    const done = events.at(-1);
    assert.equal(done?.type, "transcript.text.done");
    const deltas = events.slice(0, -1);
    assert.ok(deltas.length >= 1 && deltas.every((e) => e.type === "transcript.text.delta"));
    assert.equal(deltas.map((e) => (e.type === "transcript.text.delta" ? e.delta : "")).join(""), done.text);
    assert.match(done.text, /\bcountry\b/i);
    assert.equal(done.engine, "pocketsphinx");
    assert.equal(typeof done.optimizer_processing, "object");
    assert.equal((await client.notes.get(done.id)).text, done.text);
    const replay = await collect(client.transcribeStream(JFK_WAV, { idempotencyKey: "sdk-js-stream-1" }));
    assert.deepEqual(replay.map((e) => e.type), ["transcript.text.delta", "transcript.text.done"]);
    const replayed = replay.at(-1);
    assert.equal(replayed?.type === "transcript.text.done" ? replayed.id : undefined, done.id);
  });

  test("a failure after the stream began is thrown as the typed error (no_speech → UnprocessableError)", async () => {
    await assert.rejects(collect(client.transcribeStream(silentWav(2))), (err: unknown) => err instanceof UnprocessableError && err.code === "no_speech" && err.status === 422);
  });

  test("bad input is refused before the stream, as transcribe() refuses it", async () => {
    await assert.rejects(collect(client.transcribeStream(new TextEncoder().encode("not audio at all"))), UnsupportedMediaTypeError);
  });

  test("a stream that ends without done is a ConnectionError", async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(': keep-alive\n\ndata: {"type":"transcript.text.delta","delta":"half"}\n\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const broken = new Voicedraft({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: "vd_test" });
      const seen: TranscriptStreamEvent[] = [];
      await assert.rejects(
        (async () => {
          for await (const event of broken.transcribeStream(silentWav(1))) seen.push(event);
        })(),
        ConnectionError,
      );
      assert.deepEqual(seen, [{ type: "transcript.text.delta", delta: "half" }]);
    } finally {
      server.close();
    }
  });
});
