import assert from "node:assert/strict";
import { test } from "node:test";
import { Voicedraft } from "../dist/index.js";

// The requests the client builds from the generated operation table, seen by a stand-in fetch (no
// service): method, URL with encoded path and query, JSON body, and transcribe's multipart fields.
type Seen = { method: string; url: string; body: unknown; headers: Record<string, string> };

function recordingClient(answer: unknown = {}) {
  const seen: Seen[] = [];
  const fetch = async (url: string | URL | Request, init: RequestInit = {}) => {
    let body: unknown = init.body;
    if (body instanceof FormData) body = Object.fromEntries([...body.entries()].map(([k, v]) => [k, typeof v === "string" ? v : "(file)"]));
    else if (typeof body === "string") body = JSON.parse(body);
    seen.push({ method: init.method ?? "GET", url: String(url), body, headers: init.headers as Record<string, string> });
    return Response.json(answer);
  };
  return { seen, client: new Voicedraft({ apiKey: "k", baseUrl: "http://vd.test/", fetch, maxRetries: 0 }) };
}

test("path parameters are encoded and query parameters sent; a JSON body as JSON", async () => {
  const { seen, client } = recordingClient({ dictionary_suggestions: [], deleted: {}, item: {} });
  await client.notes.getDictionarySuggestions("a b/c", { limit: 3 });
  await client.dictionary.delete({ misspelling: "cooper netties" });
  await client.notes.update("t1", { text: "new", updated_at: "2026-01-01T00:00:00.000Z" });
  await client.content.approveVariant("v1", { content_hash: "h1" });
  assert.deepEqual(
    seen.map(({ method, url, body }) => ({ method, url, body })),
    [
      { method: "GET", url: "http://vd.test/api/v1/transcriptions/a%20b%2Fc/dictionary-suggestions?limit=3", body: undefined },
      { method: "DELETE", url: "http://vd.test/api/v1/dictionary/delete?misspelling=cooper+netties", body: undefined },
      { method: "PATCH", url: "http://vd.test/api/v1/transcriptions/t1", body: { text: "new", updated_at: "2026-01-01T00:00:00.000Z" } },
      { method: "POST", url: "http://vd.test/api/v1/content/items/v1/approve", body: { content_hash: "h1" } },
    ],
  );
  assert.equal(seen[0].headers.authorization, "Bearer k");
});

test("transcribe sends the audio and only the fields it was given, with an Idempotency-Key", async () => {
  const { seen, client } = recordingClient({ id: "t1" });
  await client.transcribe(new Uint8Array([1, 2, 3]), { idempotencyKey: "key-1" });
  await client.transcribe(new Uint8Array([1, 2, 3]), {
    prompt: "Kubernetes",
    dict: [{ misspelling: "cooper netties", correct_spelling: "Kubernetes" }],
    language: "en",
    words: true,
    recording: { id: "r1", part: 2 },
  });
  assert.equal(seen[0].url, "http://vd.test/transcribe");
  assert.deepEqual(seen[0].body, { audio: "(file)" });
  assert.equal(seen[0].headers["idempotency-key"], "key-1");
  assert.deepEqual(seen[1].body, {
    audio: "(file)",
    prompt: "Kubernetes",
    dict: '[{"misspelling":"cooper netties","correct_spelling":"Kubernetes"}]',
    language: "en",
    response_format: "verbose_json",
    timestamp_granularities: "word",
    recording_id: "r1",
    recording_part: "2",
  });
  assert.match(seen[1].headers["idempotency-key"], /^[0-9a-f]{32}$/);
});

test("a missing path parameter is refused before any request", async () => {
  const { seen, client } = recordingClient();
  await assert.rejects(client.notes.get(""), /id is required/);
  assert.equal(seen.length, 0);
});

test("a body's client id defaults to a new one, and a given one is sent as it is", async () => {
  const { seen, client } = recordingClient({ variants: [] });
  const targets = [{ channel_id: "c1", preset_id: "p1" }];
  await client.content.createVariants("m1", { targets });
  await client.content.createVariants("m1", { targets, client_request_id: "mine" });
  await client.content.recordDelivery("v1", { method: "share", state: "presented" });
  assert.match((seen[0].body as { client_request_id: string }).client_request_id, /^[0-9a-f]{32}$/);
  assert.deepEqual(seen[1].body, { targets, client_request_id: "mine" });
  assert.match((seen[2].body as { client_event_id: string }).client_event_id, /^[0-9a-f]{32}$/);
});

test("presets and channels by id, and masters, are resource methods", async () => {
  const { seen, client } = recordingClient({});
  await client.presets.update("p 1", { name: "Short" });
  await client.channels.delete("c1");
  await client.content.listMasters({ source_transcription_id: "t1", limit: 5 });
  assert.deepEqual(
    seen.map(({ method, url, body }) => ({ method, url, body })),
    [
      { method: "PATCH", url: "http://vd.test/api/v1/presets/p%201", body: { name: "Short" } },
      { method: "DELETE", url: "http://vd.test/api/v1/channels/c1", body: undefined },
      { method: "GET", url: "http://vd.test/api/v1/content/items?source_transcription_id=t1&limit=5", body: undefined },
    ],
  );
});
