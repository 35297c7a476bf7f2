import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { ApiError } from "@/lib/http/errors.ts";
import { conflictWhen, KEY_KINDS, replayOrConflict } from "@/lib/idempotency/key-kinds.ts";
import { hashRequest } from "@/lib/idempotency/request-hash.ts";

describe("hashRequest", () => {
  test("ignores key order, at every depth, but not array order or value types", () => {
    assert.equal(hashRequest({ a: 1, b: [1, { c: 2, d: 3 }] }), hashRequest({ b: [1, { d: 3, c: 2 }], a: 1 }));
    assert.notEqual(hashRequest({ a: 1, b: [1, 2] }), hashRequest({ a: 1, b: [2, 1] }));
    assert.notEqual(hashRequest({ a: 1 }), hashRequest({ a: "1" }));
    assert.notEqual(hashRequest({ a: null }), hashRequest({}));
  });

  test("an optional field left out hashes as if absent", () => {
    assert.equal(hashRequest({ prompt: undefined, language: "en" }), hashRequest({ language: "en" }));
  });

  test("is the sha256 of canonical JSON (what a client can recompute)", () => {
    assert.equal(hashRequest({ b: 1, a: "x" }), createHash("sha256").update(`{"a":"x","b":1}`).digest("hex"));
    assert.match(hashRequest({ a: 1 }), /^[0-9a-f]{64}$/);
  });

  test("refuses what JSON cannot hold instead of hashing it as null", () => {
    assert.throws(() => hashRequest({ a: Number.NaN }));
    assert.throws(() => hashRequest({ a: 1n }));
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    assert.throws(() => hashRequest(loop));
  });
});

describe("replayOrConflict", () => {
  const earlier = { requestHash: "h1", answer: 42 };

  test("a new key: nothing to replay", () => {
    assert.equal(replayOrConflict(KEY_KINDS.upload, null, "h1"), null);
  });

  test("the same request again: the earlier answer", () => {
    assert.equal(replayOrConflict(KEY_KINDS.variants, earlier, "h1"), earlier);
  });

  test("another request under the key: 409 idempotency_conflict naming the key", () => {
    for (const kind of Object.values(KEY_KINDS)) {
      assert.throws(
        () => replayOrConflict(kind, earlier, "h2"),
        (err: unknown) => err instanceof ApiError && err.code === "idempotency_conflict" && err.message.includes(kind.name),
      );
    }
  });

  test("the document's line says the same difference as the 409", () => {
    assert.equal(conflictWhen(KEY_KINDS.deliveryEvent), "The client_event_id was used before for a different event.");
  });
});
