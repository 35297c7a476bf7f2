import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import {
  ConnectionError,
  NotFoundError,
  ServiceUnavailableError,
  TimeoutError,
  Voicedraft,
  VoicedraftError,
} from "../dist/index.js";
import { startFaultProxy } from "./fault-proxy.ts";
import { getService, type Service } from "./service.ts";

describe("configuration, timeouts and retries", () => {
  let service: Service;
  before(async () => {
    service = await getService();
  });

  test("reads VOICEDRAFT_BASE_URL and VOICEDRAFT_API_KEY when not given", async () => {
    const saved = { url: process.env.VOICEDRAFT_BASE_URL, key: process.env.VOICEDRAFT_API_KEY };
    try {
      process.env.VOICEDRAFT_BASE_URL = service.baseUrl;
      process.env.VOICEDRAFT_API_KEY = service.apiKey;
      const client = new Voicedraft();
      assert.equal(client.baseUrl, service.baseUrl);
      assert.ok(Array.isArray((await client.dictionary.list()).entries));
      delete process.env.VOICEDRAFT_API_KEY;
      assert.throws(() => new Voicedraft(), (err: unknown) => err instanceof VoicedraftError && /VOICEDRAFT_API_KEY/.test(err.message));
      // Arguments win over the environment.
      process.env.VOICEDRAFT_API_KEY = "vd_from_env";
      assert.equal(new Voicedraft({ baseUrl: "http://example.test/" }).baseUrl, "http://example.test/");
    } finally {
      process.env.VOICEDRAFT_BASE_URL = saved.url;
      process.env.VOICEDRAFT_API_KEY = saved.key;
    }
  });

  test("retries a safe call after 503 and 429, honouring Retry-After", async () => {
    const proxy = await startFaultProxy(service.baseUrl);
    after(() => proxy.close());
    const client = new Voicedraft({ baseUrl: proxy.url, apiKey: service.apiKey });
    proxy.fail({ status: 503, retryAfter: "1" }, { status: 429, retryAfter: "0" });
    const started = Date.now();
    assert.ok(Array.isArray((await client.dictionary.list()).entries));
    assert.ok(Date.now() - started >= 1000, "waited the 1 s the service asked for");
    assert.equal(proxy.seen.length, 3);
  });

  test("gives up after maxRetries with the last error, typed", async () => {
    const proxy = await startFaultProxy(service.baseUrl);
    after(() => proxy.close());
    const client = new Voicedraft({ baseUrl: proxy.url, apiKey: service.apiKey, maxRetries: 1 });
    proxy.fail({ status: 503, retryAfter: "0" }, { status: 503, retryAfter: "0" }, { status: 503 });
    const error = await client.dictionary.list().catch((err: unknown) => err);
    assert.ok(error instanceof ServiceUnavailableError);
    assert.equal(error.status, 503);
    assert.equal(error.requestId, "proxy-0001");
    assert.equal(error.retryAfterSeconds, 0);
    assert.equal(proxy.seen.length, 2);
  });

  test("does not repeat a call that is unsafe to repeat (delete)", async () => {
    const proxy = await startFaultProxy(service.baseUrl);
    after(() => proxy.close());
    const client = new Voicedraft({ baseUrl: proxy.url, apiKey: service.apiKey });
    const misspelling = `gone ${randomBytes(4).toString("hex")}`;
    await client.dictionary.add({ misspelling, correct_spelling: "Gone" });
    proxy.fail("lose-response");
    await assert.rejects(client.dictionary.delete({ misspelling }), ConnectionError);
    assert.equal(proxy.seen.length, 2, "the delete was sent once");
    // It did happen: the entry is gone.
    await assert.rejects(client.dictionary.delete({ misspelling }), NotFoundError);
  });

  test("a lost response to a safe call is retried (upsert)", async () => {
    const proxy = await startFaultProxy(service.baseUrl);
    after(() => proxy.close());
    const client = new Voicedraft({ baseUrl: proxy.url, apiKey: service.apiKey });
    const misspelling = `lost ${randomBytes(4).toString("hex")}`;
    proxy.fail("lose-response");
    const { entry } = await client.dictionary.add({ misspelling, correct_spelling: "Found" });
    assert.equal(entry.correct_spelling, "Found");
    assert.equal(proxy.seen.length, 2);
    await client.dictionary.delete({ misspelling });
  });

  test("a call without an answer times out with TimeoutError, per attempt", async () => {
    const proxy = await startFaultProxy(service.baseUrl);
    after(() => proxy.close());
    const client = new Voicedraft({ baseUrl: proxy.url, apiKey: service.apiKey, timeout: 300, maxRetries: 1 });
    proxy.fail("hang", "hang");
    const started = Date.now();
    await assert.rejects(client.dictionary.list(), TimeoutError);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 600 && elapsed < 5000, `${elapsed} ms`);
    assert.equal(proxy.seen.length, 2);
  });

  test("an unreachable service is ConnectionError; an abort signal stops at once", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const client = new Voicedraft({ baseUrl: `http://127.0.0.1:${port}`, apiKey: service.apiKey, maxRetries: 0 });
    await assert.rejects(client.dictionary.list(), ConnectionError);

    const proxy = await startFaultProxy(service.baseUrl);
    after(() => proxy.close());
    const slow = new Voicedraft({ baseUrl: proxy.url, apiKey: service.apiKey });
    proxy.fail("hang");
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user gave up")), 100);
    await assert.rejects(slow.dictionary.list({}, { signal: controller.signal }), /user gave up/);
    assert.equal(proxy.seen.length, 1);
  });
});
