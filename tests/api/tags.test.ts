import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { GET as listTranscriptions } from "@/app/api/v1/transcriptions/route.ts";
import { GET as getTranscription, PATCH as editTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { GET as getRecording } from "@/app/api/v1/recordings/[recording_id]/route.ts";
import { DELETE as deleteTag, GET as listTags } from "@/app/api/v1/tags/route.ts";
import { POST as renameTag } from "@/app/api/v1/tags/rename/route.ts";
import { db } from "@/lib/db/client.ts";
import { saveNote } from "@/lib/notes/note-recognized.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestNote, createTestUser, type TestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";

// Issue 33 item 5: tags and pins on notes, on both databases. A note's tags are set with its
// PATCH; GET /api/v1/tags lists them, /tags/rename renames (or merges) and DELETE /tags removes
// them everywhere; ?tag= and `tag:` in q filter; pinned notes come first.

const database = setUpTestDatabase();
before(() => database.ready);

type Body = Record<string, unknown>;
const note = (user: TestUser, text: string) => createTestNote(user, text);
const patch = (key: string | undefined, id: string, json: unknown) =>
  call(editTranscription, { method: "PATCH", path: `/api/v1/transcriptions/${id}`, params: { id }, key, json });
const read = (key: string, id: string) => call(getTranscription, { path: `/api/v1/transcriptions/${id}`, params: { id }, key });
const list = (key: string | undefined, query = "") => call(listTranscriptions, { path: `/api/v1/transcriptions${query}`, key });
const tags = (key: string | undefined) => call(listTags, { path: "/api/v1/tags", key });
const rename = (key: string | undefined, json: unknown) => call(renameTag, { method: "POST", path: "/api/v1/tags/rename", key, json });
const remove = (key: string | undefined, name: string) =>
  call(deleteTag, { method: "DELETE", path: `/api/v1/tags?name=${encodeURIComponent(name)}`, key });
const ids = (res: { body: { transcriptions: { id: string }[] } }) => res.body.transcriptions.map((t) => t.id);
const q = (text: string) => `?q=${encodeURIComponent(text)}`;

/** Makes notes parts of one recording (as uploads with recording_id and recording_part do). */
async function asParts(recordingId: string, ...notes: { id: string }[]) {
  const prisma = await db();
  for (const [part, n] of notes.entries()) await prisma.note.update({ where: { id: n.id }, data: { recordingId, recordingPart: part } });
}

describe("tags on a note (PATCH /api/v1/transcriptions/{id})", () => {
  test("tags are trimmed, # dropped, repeats (case aside) kept once; the spelling used before wins; updated_at is untouched", async () => {
    const user = await createTestUser();
    const first = await note(user, "Quarterly planning with the team.");
    const second = await note(user, "An idea for the garden.");

    const res = await patch(user.key, first.id, { tags: ["  #Work ", "ideas   for  later", "WORK", "ideas for later"] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.tags, ["Work", "ideas for later"]);
    assert.equal(res.body.pinned, false);
    assert.equal(res.body.updated_at, first.updatedAt.toISOString(), "tagging is not an edit of the text");
    assert.deepEqual(res.body.dictionary_suggestions, []);

    // Another note: "work" is the person's "Work".
    const again = await patch(user.key, second.id, { tags: ["work", "garden"] });
    assert.deepEqual(again.body.tags, ["Work", "garden"]);
    assert.deepEqual((await read(user.key, second.id)).body.tags, ["Work", "garden"]);

    // A note's only use of a tag can change its case.
    const recased = await patch(user.key, second.id, { tags: ["work", "Garden"] });
    assert.deepEqual(recased.body.tags, ["Work", "Garden"]);

    // [] removes them; text and tags in one PATCH both apply.
    const both = await patch(user.key, second.id, { text: "An idea for the garden, with roses.", tags: [] });
    assert.equal(both.status, 200, both.text);
    assert.deepEqual(both.body.tags, []);
    assert.equal(both.body.text, "An idea for the garden, with roses.");
  });

  test("bad tags are 400 validation_failed naming the field, never a 500; at most 10 different tags", async () => {
    const user = await createTestUser();
    const { id } = await note(user, "Some words.");
    const cases: [unknown, string][] = [
      [["   "], "tags.0"],
      [["#"], "tags.0"],
      [["x".repeat(41)], "tags.0"],
      [["a,b"], "tags.0"],
      [["a/b"], "tags.0"],
      [['say "hi"'], "tags.0"],
      [["ok", "bell\u0007"], "tags.1"],
      [["ok", "\u202Eevil"], "tags.1"],
      [[42], "tags.0"],
      ["work", "tags"],
      [Array.from({ length: 11 }, (_, i) => `tag ${i}`), "tags"],
    ];
    for (const [value, path] of cases) {
      const res = await patch(user.key, id, { tags: value });
      assert.equal(res.status, 400, `${JSON.stringify(value)}: ${res.text}`);
      assert.equal(res.body.error.code, "validation_failed");
      assert.ok(res.body.error.details.some((d: { path: string }) => d.path === path), `${JSON.stringify(value)}: ${res.text}`);
    }
    // A line break is white space like any other: collapsed.
    assert.deepEqual((await patch(user.key, id, { tags: ["line\nbreak"] })).body.tags, ["line break"]);
    // Eleven with a repeat are ten different tags; 40 characters is the limit, not past it.
    const ten = [...Array.from({ length: 9 }, (_, i) => `tag ${i}`), "x".repeat(40), "TAG 0"];
    const ok = await patch(user.key, id, { tags: ten });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.tags.length, 10);
    const pinned = await patch(user.key, id, { pinned: "yes" });
    assert.equal(pinned.status, 400);
    assert.equal(pinned.body.error.code, "validation_failed");
    const nothing = await patch(user.key, id, {});
    assert.equal(nothing.status, 400);
    assert.equal(nothing.body.error.code, "validation_failed");
  });

  test("without a key: 401; another user's note: 404 and untouched", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const { id } = await note(alice, "Alice's note.");
    assert.equal((await patch(undefined, id, { tags: ["x"] })).status, 401);
    const foreign = await patch(bob.key, id, { tags: ["stolen"], pinned: true });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, "not_found");
    const mine = await read(alice.key, id);
    assert.deepEqual([mine.body.tags, mine.body.pinned], [[], false]);
    assert.deepEqual((await tags(bob.key)).body, { tags: [] });
  });

  test("a recording in parts is one note: its tags and pin go on every part, and a part uploaded later takes them", async () => {
    const user = await createTestUser();
    const parts = [await note(user, "First part about the launch."), await note(user, "Second part about the budget.")];
    await asParts("rec-tags-1", ...parts);
    const res = await patch(user.key, parts[1].id, { tags: ["launch"], pinned: true });
    assert.equal(res.status, 200, res.text);
    for (const part of parts) assert.deepEqual([(await read(user.key, part.id)).body.tags, (await read(user.key, part.id)).body.pinned], [["launch"], true]);
    const recording = await call(getRecording, { path: "/api/v1/recordings/rec-tags-1", params: { recording_id: "rec-tags-1" }, key: user.key });
    assert.deepEqual([recording.body.tags, recording.body.pinned], [["launch"], true]);

    const { result } = await saveNote({
      userId: user.id,
      data: {
        text: "Third part.", rawText: "third part", language: "en", durationSec: 3, engine: "test", segments: [], dictionaryReplacements: 0,
        audioSha256: "0".repeat(64), requestHash: "third-part-hash", optimizationId: null, recordingId: "rec-tags-1", recordingPart: 2,
      },
    });
    assert.deepEqual([result.tags, result.pinned], [["launch"], true]);
    // Counted once in the tag list.
    assert.deepEqual((await tags(user.key)).body.tags, [{ name: "launch", notes: 1 }]);
  });
});

describe("pinned notes first (GET /api/v1/transcriptions)", () => {
  test("pinned first, each group newest first, pages continue across the groups; unpinning puts a note back", async () => {
    const user = await createTestUser();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await note(user, `Note number ${i}.`));
    const [n0, n1, n2, n3, n4] = made;
    assert.equal((await patch(user.key, n1.id, { pinned: true })).status, 200);
    assert.equal((await patch(user.key, n3.id, { pinned: true })).status, 200);

    const all = await list(user.key);
    assert.deepEqual(ids(all), [n3.id, n1.id, n4.id, n2.id, n0.id]);
    assert.deepEqual(all.body.transcriptions.map((t: Body) => t.pinned), [true, true, false, false, false]);

    // Two at a time: the cursor crosses from the pinned to the others without losing or repeating one.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof list>> = await list(user.key, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      assert.equal(page.status, 200, page.text);
      seen.push(...ids(page));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, ids(all));

    assert.equal((await patch(user.key, n3.id, { pinned: false })).status, 200);
    assert.deepEqual(ids(await list(user.key)), [n1.id, n4.id, n3.id, n2.id, n0.id]);
  });
});

describe("filter by tag (?tag= and tag: in q)", () => {
  test("?tag= is case-insensitive, an unknown tag finds nothing, and tag: narrows a search, whose stemming, prefix and snippet still work", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const trip = await note(user, "We visited three countries on the trip and the country roads were lovely.");
    const work = await note(user, "The country manager wants the report by Friday.");
    const plain = await note(user, "Another country, another idea, no tag here.");
    const theirs = await note(other, "Their country note.");
    await patch(user.key, trip.id, { tags: ["Travel"] });
    await patch(user.key, work.id, { tags: ["work", "Travel plans"] });
    await patch(other.key, theirs.id, { tags: ["travel"] });

    assert.deepEqual(ids(await list(user.key, "?tag=travel")), [trip.id]);
    assert.deepEqual(ids(await list(user.key, "?tag=%23TRAVEL%20")), [trip.id]);
    assert.deepEqual(ids(await list(user.key, "?tag=nothing-like-it")), []);
    assert.deepEqual(ids(await list(user.key, q("tag:work"))), [work.id]);
    assert.deepEqual(ids(await list(user.key, q('tag:"travel plans"'))), [work.id]);
    assert.deepEqual(ids(await list(user.key, q("-tag:travel -tag:work"))), [plain.id]);

    // tag: + a prefix being typed: "countr" finds country and countries, only in the tagged notes.
    const found = await list(user.key, q("tag:travel countr"));
    assert.equal(found.status, 200, found.text);
    assert.deepEqual(ids(found), [trip.id]);
    const marked = found.body.transcriptions[0].search.snippet.filter((p: { match: boolean }) => p.match).map((p: { text: string }) => p.text);
    assert.deepEqual(marked, ["countries", "country"]);
    // Stemming: "countries" finds "country", here only among the notes tagged work.
    assert.deepEqual(ids(await list(user.key, q("countries tag:work"))), [work.id]);
    // Without the tag, the search is as before.
    assert.deepEqual(new Set(ids(await list(user.key, q("countr")))), new Set([trip.id, work.id, plain.id]));
    // ?tag= and q together; a bad tag parameter is a 400, never a 500.
    assert.deepEqual(ids(await list(user.key, `?tag=work${q("report").replace("?", "&")}`)), [work.id]);
    const bad = await list(user.key, `?tag=${"x".repeat(41)}`);
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error.code, "validation_failed");
    assert.equal((await list(undefined, "?tag=work")).status, 401);
  });
});

describe("GET /api/v1/tags, POST /api/v1/tags/rename, DELETE /api/v1/tags", () => {
  test("list with counts, most used first; rename on every note; merge into an existing tag; delete everywhere", async () => {
    const user = await createTestUser();
    const a = await note(user, "Note a.");
    const b = await note(user, "Note b.");
    const c = await note(user, "Note c.");
    await patch(user.key, a.id, { tags: ["ideas", "Work"] });
    await patch(user.key, b.id, { tags: ["work", "todo"] });
    await patch(user.key, c.id, { tags: ["Ideas"] });

    const listed = await tags(user.key);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.tags, [
      { name: "ideas", notes: 2 },
      { name: "Work", notes: 2 },
      { name: "todo", notes: 1 },
    ]);

    // A rename, case aside for from.
    const renamed = await rename(user.key, { from: "WORK", to: "  job " });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(renamed.body, { tag: { name: "job", notes: 2 }, merged: false });
    assert.deepEqual((await read(user.key, a.id)).body.tags, ["ideas", "job"]);
    assert.equal((await read(user.key, a.id)).body.updated_at, a.updatedAt.toISOString());

    // A merge: note b had both, it keeps one where the first of them was.
    const merged = await rename(user.key, { from: "todo", to: "JOB" });
    assert.deepEqual(merged.body, { tag: { name: "job", notes: 2 }, merged: true });
    assert.deepEqual((await read(user.key, b.id)).body.tags, ["job"]);

    // Only a change of case.
    assert.deepEqual((await rename(user.key, { from: "ideas", to: "Ideas" })).body, { tag: { name: "Ideas", notes: 2 }, merged: false });

    const deleted = await remove(user.key, "IDEAS");
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body, { deleted: { name: "Ideas", notes: 2 } });
    assert.deepEqual((await read(user.key, c.id)).body.tags, []);
    assert.deepEqual((await tags(user.key)).body.tags, [{ name: "job", notes: 2 }]);
    assert.equal((await read(user.key, c.id)).body.id, c.id, "the note stays");
  });

  test("401 without a key; another user's tag is 404 and untouched; bad names are 400", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const { id } = await note(alice, "Alice's note.");
    await patch(alice.key, id, { tags: ["private"] });
    assert.equal((await tags(undefined)).status, 401);
    assert.equal((await rename(undefined, { from: "private", to: "x" })).status, 401);
    assert.equal((await remove(undefined, "private")).status, 401);

    for (const res of [await rename(bob.key, { from: "private", to: "mine" }), await remove(bob.key, "private"), await remove(alice.key, "never-used")]) {
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.error.code, "not_found");
    }
    assert.deepEqual((await read(alice.key, id)).body.tags, ["private"]);

    for (const json of [{ from: "private" }, { from: "private", to: "" }, { from: "private", to: "a,b" }, { from: "private", to: "x".repeat(41) }, { from: "private", to: "x", extra: 1 }]) {
      const res = await rename(alice.key, json);
      assert.equal(res.status, 400, `${JSON.stringify(json)}: ${res.text}`);
      assert.equal(res.body.error.code, "validation_failed");
    }
    const noName = await call(deleteTag, { method: "DELETE", path: "/api/v1/tags", key: alice.key });
    assert.equal(noName.status, 400, noName.text);
    assert.equal(noName.body.error.code, "validation_failed");
  });

  test("a key without the transcribe scope cannot read or change tags", async () => {
    const user = await createTestUser({ scopes: ["dictionary:read", "dictionary:write"] });
    assert.equal((await tags(user.key)).status, 403);
    assert.equal((await rename(user.key, { from: "a", to: "b" })).status, 403);
  });
});
