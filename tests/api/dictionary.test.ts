import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { resetEnvCache } from "@/lib/env.ts";
import { GET as list } from "@/app/api/v1/dictionary/route.ts";
import { POST as add } from "@/app/api/v1/dictionary/add/route.ts";
import { DELETE as remove } from "@/app/api/v1/dictionary/delete/route.ts";
import { GET as impact } from "@/app/api/v1/dictionary/impact/route.ts";
import { createTestNote } from "@/tests/support/factories.ts";

setUpTestDatabase();

const addEntry = (key: string, misspelling: string, correct_spelling: string) =>
  call(add, { method: "POST", path: "/api/v1/dictionary/add", key, json: { misspelling, correct_spelling } });
const listEntries = (key: string, query = "") => call(list, { path: `/api/v1/dictionary${query}`, key });
const deleteEntry = (key: string, misspelling: string) =>
  call(remove, {
    method: "DELETE",
    path: `/api/v1/dictionary/delete?misspelling=${encodeURIComponent(misspelling)}`,
    key,
  });

describe("happy path", () => {
  test("add, list and delete an entry", async () => {
    const { key } = await createTestUser();
    const added = await addEntry(key, "cooper netties", "Kubernetes");
    assert.equal(added.status, 201);
    assert.equal(added.body.created, true);
    assert.equal(added.body.entry.misspelling, "cooper netties");
    assert.equal(added.body.entry.correct_spelling, "Kubernetes");
    assert.ok(added.headers.get("x-request-id"));

    const listed = await listEntries(key);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.entries.map((e: { misspelling: string }) => e.misspelling),
      ["cooper netties"],
    );
    assert.equal(listed.body.next_cursor, null);

    const deleted = await deleteEntry(key, "cooper netties");
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.deleted.correct_spelling, "Kubernetes");
    assert.deepEqual((await listEntries(key)).body.entries, []);
  });

  test("adding the same misspelling twice updates the one entry", async () => {
    const { key } = await createTestUser();
    assert.equal((await addEntry(key, "postgress", "Postgres")).status, 201);
    const second = await addEntry(key, "postgress", "PostgreSQL");
    assert.equal(second.status, 200);
    assert.equal(second.body.created, false);
    const entries = (await listEntries(key)).body.entries;
    assert.equal(entries.length, 1);
    assert.equal(entries[0].correct_spelling, "PostgreSQL");
  });

  test("case, spacing and Unicode variants of a misspelling are the same entry", async () => {
    const { key } = await createTestUser();
    await addEntry(key, "Café Noir", "Cafe Noir");
    for (const variant of ["café noir", "  CAFÉ   NOIR ", "Cafe\u0301 noir"]) {
      const res = await addEntry(key, variant, "Café Noir");
      assert.equal(res.status, 200, `variant ${JSON.stringify(variant)} should update`);
    }
    await addEntry(key, "Straße", "Strasse");
    assert.equal((await addEntry(key, "STRASSE", "Straße")).status, 200);
    const entries = (await listEntries(key)).body.entries;
    assert.equal(entries.length, 2);
    assert.equal(entries.find((e: { correct_spelling: string }) => e.correct_spelling === "Straße").misspelling, "STRASSE");
    // Deleting by any variant finds it too.
    assert.equal((await deleteEntry(key, "straße")).status, 200);
  });

  test("the list is sorted by misspelling and pages with a cursor", async () => {
    const { key } = await createTestUser();
    for (const word of ["delta", "Alpha", "charlie", "bravo", "echo"]) await addEntry(key, word, word.toUpperCase());
    const all = (await listEntries(key)).body.entries.map((e: { misspelling: string }) => e.misspelling);
    assert.deepEqual(all, ["Alpha", "bravo", "charlie", "delta", "echo"]);

    const first = await listEntries(key, "?limit=2");
    assert.deepEqual(first.body.entries.map((e: { misspelling: string }) => e.misspelling), ["Alpha", "bravo"]);
    assert.ok(first.body.next_cursor);
    const second = await listEntries(key, `?limit=2&cursor=${first.body.next_cursor}`);
    assert.deepEqual(second.body.entries.map((e: { misspelling: string }) => e.misspelling), ["charlie", "delta"]);
    const third = await listEntries(key, `?limit=2&cursor=${second.body.next_cursor}`);
    assert.deepEqual(third.body.entries.map((e: { misspelling: string }) => e.misspelling), ["echo"]);
    assert.equal(third.body.next_cursor, null);
  });
});

describe("what an entry would change", () => {
  const ask = (key: string, query: string) => call(impact, { path: `/api/v1/dictionary/impact?${query}`, key });

  test("an everyday word of the language, and how many of your notes hold it (yours only)", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    await createTestNote(user, "And I got my god. My plan is simple.");
    await createTestNote(user, "Ship it on Monday with my team");
    await createTestNote(user, "Nothing here about it");
    await createTestNote(other, "my my my");
    const my = await ask(user.key, "misspelling=My");
    assert.equal(my.status, 200);
    assert.deepEqual(my.body, { misspelling: "My", everyday_word: true, language: null, notes: 2 });
    // A phrase counts only where its words follow each other; a name is not an everyday word.
    assert.equal((await ask(user.key, "misspelling=my%20team")).body.notes, 1);
    assert.equal((await ask(user.key, "misspelling=my%20team")).body.everyday_word, true, "both among the most spoken words");
    // Issue 57: the common words are the most spoken ones, not only the everyday list; names are not.
    for (const word of ["blows", "greatly", "Country"]) assert.equal((await ask(user.key, `misspelling=${word}`)).body.everyday_word, true, word);
    for (const word of ["John", "Maria", "Kubernetes", "prudently", "my%20Kubernetes"]) assert.equal((await ask(user.key, `misspelling=${word}`)).body.everyday_word, false, word);
    assert.deepEqual((await ask(user.key, "misspelling=cooper%20netties")).body, { misspelling: "cooper netties", everyday_word: false, language: null, notes: 0 });
    // Per language: "und" is everyday in German, not in Spanish (where only Spanish and English count).
    assert.equal((await ask(user.key, "misspelling=und&language=de")).body.everyday_word, true);
    assert.equal((await ask(user.key, "misspelling=und&language=es")).body.everyday_word, false);
    assert.equal((await ask(user.key, "misspelling=the&language=es")).body.everyday_word, true);
  });

  test("bad input is a 400 naming the field", async () => {
    const { key } = await createTestUser();
    for (const query of ["", "misspelling=", "misspelling=my&language=english", "misspelling=my&extra=1"]) {
      const answer = await ask(key, query);
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.error.code, "validation_failed", query);
    }
  });
});

describe("ownership", () => {
  test("one user can neither see nor delete another's entries", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    await addEntry(alice.key, "teh", "the");
    assert.deepEqual((await listEntries(bob.key)).body.entries, []);
    const res = await deleteEntry(bob.key, "teh");
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, "not_found");
    assert.equal((await listEntries(alice.key)).body.entries.length, 1);
    // Bob's own entry with the same misspelling is separate.
    assert.equal((await addEntry(bob.key, "teh", "THE")).status, 201);
    assert.equal((await listEntries(alice.key)).body.entries[0].correct_spelling, "the");
  });
});

describe("bad input", () => {
  test("deleting a missing entry is a 404 with the error shape", async () => {
    const { key } = await createTestUser();
    const res = await deleteEntry(key, "never added");
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, "not_found");
    assert.match(res.body.error.message, /never added/);
    assert.equal(res.body.error.request_id, res.headers.get("x-request-id"));
  });

  test("delete without misspelling, or with an unknown parameter, is a 400", async () => {
    const { key } = await createTestUser();
    const missing = await call(remove, { method: "DELETE", path: "/api/v1/dictionary/delete", key });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, "validation_failed");
    assert.equal(missing.body.error.details[0].path, "misspelling");
    const unknown = await call(remove, { method: "DELETE", path: "/api/v1/dictionary/delete?misspelling=a&x=1", key });
    assert.equal(unknown.status, 400);
  });

  test("malformed JSON, wrong content type, wrong types, missing and unknown fields", async () => {
    const { key } = await createTestUser();
    const cases: Array<{ name: string; init: Omit<Parameters<typeof call>[1], "path">; status: number; code: string }> = [
      { name: "malformed", init: { body: "{nope", headers: { "content-type": "application/json" } }, status: 400, code: "invalid_json" },
      { name: "form", init: { body: "misspelling=a", headers: { "content-type": "application/x-www-form-urlencoded" } }, status: 415, code: "unsupported_media_type" },
      { name: "no content type", init: { body: JSON.stringify({ misspelling: "a", correct_spelling: "b" }) }, status: 415, code: "unsupported_media_type" },
      { name: "number", init: { json: { misspelling: 5, correct_spelling: "b" } }, status: 400, code: "validation_failed" },
      { name: "missing field", init: { json: { misspelling: "a" } }, status: 400, code: "validation_failed" },
      { name: "unknown field", init: { json: { misspelling: "a", correct_spelling: "b", extra: 1 } }, status: 400, code: "validation_failed" },
      { name: "array body", init: { json: [{ misspelling: "a", correct_spelling: "b" }] }, status: 400, code: "validation_failed" },
      { name: "blank", init: { json: { misspelling: "   ", correct_spelling: "b" } }, status: 400, code: "validation_failed" },
      { name: "line break", init: { json: { misspelling: "a\nb", correct_spelling: "b" } }, status: 400, code: "validation_failed" },
      { name: "too long", init: { json: { misspelling: "x".repeat(101), correct_spelling: "b" } }, status: 400, code: "validation_failed" },
      { name: "correct too long", init: { json: { misspelling: "x", correct_spelling: "y".repeat(201) } }, status: 400, code: "validation_failed" },
    ];
    for (const c of cases) {
      const res = await call(add, { method: "POST", path: "/api/v1/dictionary/add", key, ...c.init });
      assert.equal(res.status, c.status, c.name);
      assert.equal(res.body.error.code, c.code, c.name);
      assert.equal(typeof res.body.error.message, "string", c.name);
    }
    assert.deepEqual((await listEntries(key)).body.entries, [], "nothing was stored");
  });

  test("validation errors name the field", async () => {
    const { key } = await createTestUser();
    const res = await call(add, { method: "POST", path: "/api/v1/dictionary/add", key, json: { misspelling: "a", correct_spelling: 7 } });
    assert.deepEqual(res.body.error.details.map((d: { path: string }) => d.path), ["correct_spelling"]);
  });

  test("a huge body is refused with 413 before it is parsed", async () => {
    const { key } = await createTestUser();
    const huge = JSON.stringify({ misspelling: "a", correct_spelling: "b".repeat(200_000) });
    const res = await call(add, { method: "POST", path: "/api/v1/dictionary/add", key, body: huge, headers: { "content-type": "application/json" } });
    assert.equal(res.status, 413);
    assert.equal(res.body.error.code, "payload_too_large");
    // The same without a Content-Length (a stream) is cut off while reading.
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(huge));
        controller.close();
      },
    });
    const streamed = await call(add, {
      method: "POST",
      path: "/api/v1/dictionary/add",
      key,
      body: stream,
      headers: { "content-type": "application/json" },
    });
    assert.equal(streamed.status, 413);
  });

  test("bad list parameters are a 400", async () => {
    const { key } = await createTestUser();
    for (const query of ["?limit=0", "?limit=abc", "?limit=10001", "?cursor=zzz", "?sort=asc"]) {
      const res = await listEntries(key, query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, "validation_failed", query);
    }
    // A broken %-escape is not text at all: invalid_encoding (issue 44), before any field is read.
    const broken = await listEntries(key, "?cursor=%%%");
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error.code, "invalid_encoding");
  });
});

describe("limits", () => {
  test("the per-user entry limit holds, also under concurrent adds; updates still work", async () => {
    process.env.DICTIONARY_MAX_ENTRIES = "5";
    resetEnvCache();
    try {
      const { key } = await createTestUser();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => addEntry(key, `word${i}`, `Word${i}`)),
      );
      assert.equal(results.filter((r) => r.status === 201).length, 5);
      const refused = results.filter((r) => r.status === 409);
      assert.equal(refused.length, 7);
      assert.equal(refused[0].body.error.code, "dictionary_limit_reached");
      assert.match(refused[0].body.error.message, /5 entries/);
      assert.equal((await listEntries(key)).body.entries.length, 5);
      const stored = (await listEntries(key)).body.entries[0].misspelling;
      assert.equal((await addEntry(key, stored, "Updated")).status, 200);
    } finally {
      delete process.env.DICTIONARY_MAX_ENTRIES;
      resetEnvCache();
    }
  });
});

describe("what the body says it is", () => {
  test("a JSON body declared in another charset than UTF-8 is refused (415), UTF-8 is fine", async () => {
    const { key } = await createTestUser();
    const json = JSON.stringify({ misspelling: "postgress", correct_spelling: "Postgres" });
    for (const type of ["application/json; charset=utf-16", "application/json; charset=ISO-8859-1", 'application/json;charset="latin1"']) {
      const res = await call(add, { method: "POST", path: "/api/v1/dictionary/add", key, body: json, headers: { "content-type": type } });
      assert.equal(res.status, 415, type);
      assert.equal(res.body.error.code, "unsupported_media_type");
    }
    for (const type of ["application/json; charset=utf-8", "application/json;charset=UTF-8", "application/json"]) {
      const res = await call(add, { method: "POST", path: "/api/v1/dictionary/add", key, body: json, headers: { "content-type": type } });
      assert.ok(res.status === 201 || res.status === 200, `${type}: ${res.status}`);
    }
  });

  test("misspellings and spellings with bidirectional controls are refused (400)", async () => {
    const { key } = await createTestUser();
    for (const [misspelling, correct] of [["post\u202Egress", "Postgres"], ["postgress", "Post\u2067gres\u2069"]]) {
      const res = await addEntry(key, misspelling, correct);
      assert.equal(res.status, 400, JSON.stringify([misspelling, correct]));
      assert.equal(res.body.error.code, "validation_failed");
    }
  });
});
