import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { finishLiveUpload, startLiveSender } from "@/app/_lib/recording/live-recording.ts";

// The phone's live upload when the server will not take a recording live (issue 44, item 6): the
// recording is never lost to a refusal. A refused start (429 too_many_live_recordings), audio the
// server cannot follow (415), or a note made of only part of it (the idle sweep) make the queue
// send the recording whole (POST /transcribe); a plain rate limit is tried again later, live.

type Answer = { status: number; body: unknown };
type Seen = { method: string; url: string };
let seen: Seen[];
let answers: ((req: Seen) => Answer | undefined)[];
const realFetch = globalThis.fetch;

const error = (status: number, code: string, message = code) => ({ status, body: { error: { code, message, request_id: "r" } } });
const live = (bytes: number, transcriptionId: string | null = null) => ({
  status: 200,
  body: { id: "rec", status: transcriptionId ? "done" : "recording", bytes_received: bytes, heard_seconds: 0, pieces: [], text: "", provisional_text: "", provisional_until: null, transcription_id: transcriptionId },
});

beforeEach(() => {
  seen = [];
  answers = [];
  globalThis.fetch = (async (input: string | URL, init?: RequestInit) => {
    const req = { method: init?.method ?? "GET", url: String(input) };
    seen.push(req);
    for (const answer of answers) {
      const found = answer(req);
      if (found) return new Response(JSON.stringify(found.body), { status: found.status, headers: { "content-type": "application/json" } });
    }
    throw new TypeError("network down"); // nothing planned: as if offline
  }) as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

const blob = (size: number) => new Blob([new Uint8Array(size)], { type: "audio/webm" });
const on = (method: string, pattern: RegExp, answer: Answer) => answers.push((req) => (req.method === method && pattern.test(req.url) ? answer : undefined));

describe("finishLiveUpload: when the recording goes whole", () => {
  test("a refused start (too many live recordings open) sends it whole, and never asks for a note of it live", async () => {
    on("GET", /live-recordings\/rec$/, error(404, "not_found"));
    on("PATCH", /offset=0/, error(429, "too_many_live_recordings", "You have 3 live recordings open"));
    assert.deepEqual(await finishLiveUpload("rec", blob(5000), Date.now()), { status: "whole" });
    assert.ok(!seen.some((r) => r.url.endsWith("/finish")), "no finish");
  });

  test("a note the server made of only part of it (the phone went quiet) sends it whole; one of all of it is done", async () => {
    on("GET", /live-recordings\/rec$/, live(3000, "note-1"));
    assert.deepEqual(await finishLiveUpload("rec", blob(9000), Date.now()), { status: "whole" });
    assert.deepEqual(await finishLiveUpload("rec", blob(3000), Date.now()), { status: "done", transcriptionId: "note-1" });
  });

  test("finished meanwhile (409 recording_finished) or bytes it cannot follow (415): whole", async () => {
    for (const refusal of [error(409, "recording_finished"), error(415, "unsupported_audio")]) {
      answers = [];
      on("GET", /live-recordings\/rec$/, live(2000));
      on("PATCH", /offset=2000/, refusal);
      assert.deepEqual(await finishLiveUpload("rec", blob(6000), Date.now()), { status: "whole" });
    }
  });

  test("a rate limit or a server error is tried again live (not whole); the quota is a failure to show, kept on the phone", async () => {
    on("GET", /live-recordings\/rec$/, error(404, "not_found"));
    on("PATCH", /offset=0/, error(429, "rate_limited", "Too many requests"));
    assert.deepEqual(await finishLiveUpload("rec", blob(5000), Date.now()), { status: "retry", error: "Too many requests" });
    answers = [];
    on("GET", /live-recordings\/rec$/, error(404, "not_found"));
    on("PATCH", /offset=0/, error(413, "audio_quota_exceeded", "This account keeps 500 MB"));
    assert.deepEqual(await finishLiveUpload("rec", blob(5000), Date.now()), { status: "failed", error: "This account keeps 500 MB" });
  });

  test("taken live: the rest is appended, then finished", async () => {
    on("GET", /live-recordings\/rec$/, live(2000));
    on("PATCH", /offset=2000/, live(6000));
    on("POST", /\/finish$/, { status: 201, body: { id: "note-2" } });
    assert.deepEqual(await finishLiveUpload("rec", blob(6000), Date.now()), { status: "done", transcriptionId: "note-2" });
  });
});

describe("startLiveSender while recording", () => {
  const listeners = new Map<string, () => void>();
  beforeEach(() => {
    (globalThis as unknown as { window: unknown }).window = {
      addEventListener: (name: string, fn: () => void) => listeners.set(name, fn),
      removeEventListener: (name: string) => listeners.delete(name),
    };
  });
  afterEach(() => {
    delete (globalThis as unknown as { window?: unknown }).window;
  });
  const settle = () => new Promise((r) => setTimeout(r, 20));

  test("a refused start stops sending at once and says why; the chunks that follow are not sent", async () => {
    on("PATCH", /offset=0/, error(429, "too_many_live_recordings"));
    const off: string[] = [];
    const sender = startLiveSender("rec", "audio/webm", Date.now(), () => undefined, (why) => off.push(why));
    sender.push(blob(1000));
    await settle();
    sender.push(blob(1000));
    sender.push(blob(1000));
    await settle();
    await sender.stop();
    assert.equal(seen.filter((r) => r.method === "PATCH").length, 1);
    assert.equal(off.length, 1);
    assert.match(off[0], /too many recordings/i);
  });

  test("a plain rate limit is not the end of captions: nothing is said, and it is tried again", async () => {
    on("PATCH", /offset=0/, error(429, "rate_limited"));
    const off: string[] = [];
    const sender = startLiveSender("rec", "audio/webm", Date.now(), () => undefined, (why) => off.push(why));
    sender.push(blob(1000));
    await new Promise((r) => setTimeout(r, 1200)); // the first retry comes after a second
    await sender.stop();
    assert.deepEqual(off, []);
    assert.equal(seen.filter((r) => r.method === "PATCH").length, 2, "sent again");
  });
});
