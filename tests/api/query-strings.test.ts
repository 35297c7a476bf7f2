// Issue 44, item 7: what a query string may carry. Bytes that are not UTF-8 (or a broken
// %-escape) are 400 invalid_encoding, not silently replaced; an integer parameter is decimal digits
// only (`offset=`, `0x10` and `1e3` were taken as 0, 16 and 1000).
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { PATCH as appendLive } from "@/app/api/v1/live-recordings/[id]/route.ts";
import { GET as listContent } from "@/app/api/v1/content/items/route.ts";
import { GET as listDictionary } from "@/app/api/v1/dictionary/route.ts";
import { GET as suggestions } from "@/app/api/v1/transcriptions/[id]/dictionary-suggestions/route.ts";
import { GET as listNotes } from "@/app/api/v1/transcriptions/route.ts";
import { GET as listDeliveries } from "@/app/api/v1/webhooks/[id]/deliveries/route.ts";
import type { RouteHandler } from "@/lib/api/with-request.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestNote, createTestUser, type TestUser } from "../support/factories.ts";
import { call, type CallResult } from "../support/http.ts";

const database = setUpTestDatabase();
let user: TestUser;
before(async () => {
  await database.ready;
  user = await createTestUser();
});

const ID = "0190f0f0-0000-7000-8000-000000000000";

function assertRefused(res: CallResult, code: string, where: string) {
  assert.equal(res.status, 400, `${where}: ${res.status} ${res.text}`);
  assert.equal(res.body.error.code, code, where);
  assert.equal(res.body.error.request_id, res.headers.get("x-request-id"), where);
  assert.ok(res.body.error.message, where);
}

describe("invalid_encoding", () => {
  test("bytes that are not UTF-8, an encoded surrogate or a broken escape: 400 invalid_encoding, in a value or a name", async () => {
    for (const query of ["q=%FF", "q=caf%E9", "q=%C3%28", "q=%ED%A0%80", "q=%F0%9F%98", "q=%E0%A4%A", "q=%zz", "%FF=1", "tag=ok&q=%C0%AF"]) {
      const res = await call(listNotes, { path: `/api/v1/transcriptions?${query}`, key: user.key });
      assertRefused(res, "invalid_encoding", query);
      assert.deepEqual(res.body.error.details, [{ path: "(query)", message: "not percent-encoded UTF-8" }], query);
    }
  });

  test("the same text, in UTF-8, is searched", async () => {
    await createTestNote(user, "We met at the café on Tuesday.");
    const res = await call(listNotes, { path: "/api/v1/transcriptions?q=caf%C3%A9", key: user.key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.transcriptions.length, 1);
    assert.equal((await call(listNotes, { path: "/api/v1/transcriptions?q=caf%C3%A9+on+%F0%9F%98%80", key: user.key })).status, 200);
  });

  test("every operation refuses it, also one that takes no query", async () => {
    for (const [handler, path, params] of [
      [listDictionary, "/api/v1/dictionary?cursor=%FF", {}],
      [appendLive, `/api/v1/live-recordings/x?offset=0&recorded_at=%FF`, { id: "x" }],
      [suggestions, `/api/v1/transcriptions/${ID}/dictionary-suggestions?x=%FF`, { id: ID }],
    ] as [RouteHandler, string, Record<string, string>][]) {
      const res = await call(handler, { method: handler === appendLive ? "PATCH" : "GET", path, key: user.key, params, body: handler === appendLive ? new Uint8Array([1]) : undefined });
      assertRefused(res, "invalid_encoding", path);
    }
  });
});

describe("integer query parameters are decimal digits", () => {
  const NOT_INTEGERS = ["", "0x10", "1e3", "1e1", "+5", "%205", "5%20", "1.0", "0b1", "Infinity", "١٢"];

  test("offset of a live append: empty, hex, exponent, spaces, signs: 400 validation_failed naming offset", async () => {
    for (const value of NOT_INTEGERS) {
      const res = await call(appendLive, { method: "PATCH", path: `/api/v1/live-recordings/live-q?offset=${value}`, key: user.key, body: new Uint8Array([1, 2, 3]), params: { id: "live-q" } });
      assertRefused(res, "validation_failed", `offset=${value}`);
      assert.equal(res.body.error.details[0].path, "offset", `offset=${value}`);
    }
  });

  test("limit of every list: the same; digits are taken", async () => {
    const lists: [RouteHandler, string, Record<string, string>][] = [
      [listNotes, "/api/v1/transcriptions", {}],
      [listDictionary, "/api/v1/dictionary", {}],
      [listContent, "/api/v1/content/items", {}],
      [suggestions, `/api/v1/transcriptions/${ID}/dictionary-suggestions`, { id: ID }],
      [listDeliveries, `/api/v1/webhooks/${ID}/deliveries`, { id: ID }],
    ];
    for (const [handler, path, params] of lists) {
      for (const value of NOT_INTEGERS) {
        const res = await call(handler, { path: `${path}?limit=${value}`, key: user.key, params });
        assertRefused(res, "validation_failed", `${path}?limit=${value}`);
        assert.equal(res.body.error.details[0].path, "limit", `${path}?limit=${value}`);
      }
      // Digits pass the query (the ids above are nobody's, so those two answer 404 after it).
      const res = await call(handler, { path: `${path}?limit=10`, key: user.key, params });
      assert.ok(res.status === 200 || res.status === 404, `${path}?limit=10: ${res.status} ${res.text}`);
    }
    const page = await call(listNotes, { path: "/api/v1/transcriptions?limit=010", key: user.key });
    assert.equal(page.status, 200, page.text);
    assertRefused(await call(listNotes, { path: "/api/v1/transcriptions?limit=101", key: user.key }), "validation_failed", "limit=101");
  });
});
