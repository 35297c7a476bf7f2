import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { before, describe, test } from "node:test";
import {
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  Voicedraft,
} from "../dist/index.js";
import { getService, type Service } from "./service.ts";

// Each test uses its own misspellings: the suites share one user and run in any order.
const unique = (word: string) => `${word} ${randomBytes(4).toString("hex")}`;

describe("dictionary", () => {
  let service: Service;
  let client: Voicedraft;
  before(async () => {
    service = await getService();
    client = new Voicedraft({ baseUrl: service.baseUrl, apiKey: service.apiKey });
  });

  test("add creates, add again updates, list shows it, delete removes it", async () => {
    const misspelling = unique("cooper netties");
    const added = await client.dictionary.add({ misspelling, correct_spelling: "Kubernetes" });
    assert.equal(added.created, true);
    assert.equal(added.entry.misspelling, misspelling);
    assert.equal(added.entry.correct_spelling, "Kubernetes");
    assert.match(added.entry.created_at, /^\d{4}-\d\d-\d\dT/);

    const updated = await client.dictionary.add({ misspelling: misspelling.toUpperCase(), correct_spelling: "K8s" });
    assert.equal(updated.created, false);
    assert.equal(updated.entry.correct_spelling, "K8s");

    const listed = (await client.dictionary.list()).entries.filter((e) => e.misspelling.toLowerCase() === misspelling);
    assert.deepEqual(listed.map((e) => e.correct_spelling), ["K8s"]);

    const { deleted } = await client.dictionary.delete({ misspelling });
    assert.equal(deleted.correct_spelling, "K8s");
    assert.ok(!(await client.dictionary.list()).entries.some((e) => e.misspelling.toLowerCase() === misspelling));
  });

  test("deleting a missing entry is NotFoundError with status, code and request id", async () => {
    const error = await client.dictionary.delete({ misspelling: unique("never added") }).then(
      () => assert.fail("expected an error"),
      (err: unknown) => err,
    );
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.status, 404);
    assert.equal(error.code, "not_found");
    assert.match(error.requestId ?? "", /\S{8,}/);
    assert.match(error.message, /404 not_found/);
  });

  test("another user's entries are not visible", async () => {
    const misspelling = unique("voice draft");
    await client.dictionary.add({ misspelling, correct_spelling: "Voicedraft" });
    const other = new Voicedraft({ baseUrl: service.baseUrl, apiKey: service.otherApiKey });
    assert.ok(!(await other.dictionary.list()).entries.some((e) => e.misspelling === misspelling));
    await assert.rejects(other.dictionary.delete({ misspelling }), NotFoundError);
    await client.dictionary.delete({ misspelling });
  });

  test("invalid input is BadRequestError with the field in details", async () => {
    const error = await client.dictionary.add({ misspelling: unique("fine"), correct_spelling: "" }).catch((err: unknown) => err);
    assert.ok(error instanceof BadRequestError, String(error));
    assert.equal(error.code, "validation_failed");
    assert.deepEqual(error.details.map((d) => d.path), ["correct_spelling"]);
  });

  test("a wrong key is AuthenticationError (401); a read-only key cannot add (403)", async () => {
    const stranger = new Voicedraft({ baseUrl: service.baseUrl, apiKey: "vd_" + "x".repeat(43) });
    const error = await stranger.dictionary.list().catch((err: unknown) => err);
    assert.ok(error instanceof AuthenticationError);
    assert.equal(error.status, 401);
    assert.equal(error.code, "unauthorized");

    const readOnly = new Voicedraft({ baseUrl: service.baseUrl, apiKey: service.readOnlyApiKey });
    assert.ok(Array.isArray((await readOnly.dictionary.list()).entries));
    await assert.rejects(readOnly.dictionary.add({ misspelling: unique("nope"), correct_spelling: "Nope" }), (err: unknown) => {
      assert.ok(err instanceof PermissionDeniedError);
      assert.equal(err.code, "insufficient_scope");
      return true;
    });
  });
});
