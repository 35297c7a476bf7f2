import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { GET as getTranscription, PATCH as editTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { GET as dictionarySuggestions } from "@/app/api/v1/transcriptions/[id]/dictionary-suggestions/route.ts";
import { POST as addEntry } from "@/app/api/v1/dictionary/add/route.ts";
import { content, setUpContentTests } from "@/tests/api/content-support.ts";
import { createTestNote, createTestUser, type TestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";

setUpContentTests({ workers: false });

const RAW = "so we moved the cluster to cooper netties last week and post grass runs fine on cooper netties";

const transcriptionOf = (user: TestUser, optimizedText: string | null = null) => createTestNote(user, RAW, optimizedText);

const at = (id: string, suffix = "") => ({ path: `/api/v1/transcriptions/${id}${suffix}`, params: { id } });
const edit = (key: string | undefined, id: string, json: unknown) => call(editTranscription, { method: "PATCH", ...at(id), key, json });
const suggestions = (key: string | undefined, id: string, query = "") =>
  call(dictionarySuggestions, { ...at(id, `/dictionary-suggestions${query}`), key, params: { id } });

const EDITED = "So we moved the cluster to Kubernetes last week, and Postgres runs fine on Kubernetes.";

describe("dictionary suggestions from transcript edits", () => {
  test("the PATCH answer suggests entries from this edit; GET compares the recognizer's text with the current one", async () => {
    const user = await createTestUser();
    const { id } = await transcriptionOf(user);
    assert.deepEqual((await suggestions(user.key, id)).body, { dictionary_suggestions: [] });

    const res = await edit(user.key, id, { text: EDITED });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.text, EDITED);
    assert.deepEqual(res.body.dictionary_suggestions, [
      { misspelling: "cooper netties", correct_spelling: "Kubernetes", occurrences: 2 },
      { misspelling: "post grass", correct_spelling: "Postgres", occurrences: 1 },
    ]);

    // A second edit suggests only what it changed; GET still sees every change since recognition.
    const second = await edit(user.key, id, { text: EDITED.replace("last week", "last Week") });
    assert.deepEqual(second.body.dictionary_suggestions, []);
    const all = await suggestions(user.key, id);
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body.dictionary_suggestions.map((s: { misspelling: string }) => s.misspelling), ["cooper netties", "post grass"]);
    assert.equal((await suggestions(user.key, id, "?limit=1")).body.dictionary_suggestions.length, 1);

    // What the dictionary holds is not suggested again.
    const added = await call(addEntry, { method: "POST", path: "/api/v1/dictionary/add", key: user.key, json: { misspelling: "Cooper Netties", correct_spelling: "Kubernetes" } });
    assert.equal(added.status, 201, added.text);
    assert.deepEqual((await suggestions(user.key, id)).body.dictionary_suggestions, [
      { misspelling: "post grass", correct_spelling: "Postgres", occurrences: 1 },
    ]);
  });

  // Issue 57 item 3: an Undo is an edit back to what the recognizer wrote; it teaches nothing.
  test("an edit back to the recognized words (an Undo of a fix) suggests no reverse entry", async () => {
    const user = await createTestUser();
    const heard = "Prices rose greatly this year, and the board spent greatly on travel.";
    const { id } = await createTestNote(user, heard);
    const fixed = heard.replace("rose greatly", "rose prudently");
    const fix = await edit(user.key, id, { text: fixed });
    assert.equal(fix.status, 200, fix.text);
    const undo = await edit(user.key, id, { text: heard });
    assert.equal(undo.status, 200, undo.text);
    assert.deepEqual(undo.body.dictionary_suggestions, [], "no “prudently” → “greatly”");
    assert.deepEqual((await suggestions(user.key, id)).body.dictionary_suggestions, []);
  });

  test("an edit back to what the note showed before the first edit makes it unedited again (issue 69)", async () => {
    const user = await createTestUser();
    const clean = "So we moved the cluster to cooper netties last week.";
    const { id } = await transcriptionOf(user, clean);
    // Fix a word twice, then Undo both: the note shows its clean-up again, and says so.
    const first = await edit(user.key, id, { text: clean.replace("cooper netties", "Kubernetes") });
    assert.equal(first.body.edited_at !== null, true, first.text);
    const second = await edit(user.key, id, { text: first.body.text.replace("last week", "last Tuesday") });
    assert.equal(second.body.text, "So we moved the cluster to Kubernetes last Tuesday.");
    assert.equal((await edit(user.key, id, { text: first.body.text })).body.edited_at !== null, true, "one fix still stands");
    const undone = await edit(user.key, id, { text: clean });
    assert.equal(undone.status, 200, undone.text);
    assert.equal(undone.body.edited_at, null);
    assert.equal(undone.body.text, RAW, "the recognized text is kept under the clean-up");
    assert.equal((await content.create(user.key, { source_transcription_id: id })).body.item.source_text_kind, "optimized");
    // "Show the recognized text" is an edit (the clean-up stays behind it), and its Undo is not.
    const recognized = await edit(user.key, id, { text: RAW });
    assert.notEqual(recognized.body.edited_at, null);
    assert.equal((await edit(user.key, id, { text: clean })).body.edited_at, null);
    // A note without a clean-up: an edit back to the recognized words.
    const plain = await transcriptionOf(user);
    await edit(user.key, plain.id, { text: EDITED });
    const back = await edit(user.key, plain.id, { text: RAW });
    assert.equal(back.body.edited_at, null);
    assert.equal((await content.create(user.key, { source_transcription_id: plain.id })).body.item.source_text_kind, "recognized");
  });

  test("without a key: 401; another user's transcription: 404; a bad limit or text: 400", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const { id } = await transcriptionOf(alice);
    assert.equal((await suggestions(undefined, id)).status, 401);
    const foreign = await suggestions(bob.key, id);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, "not_found");
    assert.equal((await edit(bob.key, id, { text: EDITED })).status, 404);
    for (const query of ["?limit=0", "?limit=21", "?limit=x", "?other=1"]) {
      const bad = await suggestions(alice.key, id, query);
      assert.equal(bad.status, 400, query);
      assert.equal(bad.body.error.code, "validation_failed");
    }
    const badEdit = await edit(alice.key, id, { text: 42 });
    assert.equal(badEdit.status, 400);
    assert.equal(badEdit.body.error.code, "validation_failed");
    const read = await call(getTranscription, { ...at(id), key: alice.key });
    assert.equal(read.body.text, RAW);
  });

  test("a key without the transcribe scope cannot read suggestions", async () => {
    const user = await createTestUser({ scopes: ["dictionary:read", "dictionary:write"] });
    const { id } = await transcriptionOf(user);
    const res = await suggestions(user.key, id);
    assert.equal(res.status, 403, res.text);
  });
});

describe("a master is made from the clean text", () => {
  test("the user's edit, else the optimized text, else the recognized text; and it says which", async () => {
    const user = await createTestUser();
    const plain = await transcriptionOf(user);
    const optimized = await transcriptionOf(user, "So we moved the cluster to cooper netties last week.");
    const edited = await transcriptionOf(user, "So we moved the cluster to cooper netties last week.");
    assert.equal((await edit(user.key, edited.id, { text: EDITED })).status, 200);

    const made = async (source_transcription_id: string, body?: string) => {
      const res = await content.create(user.key, { source_transcription_id, ...(body && { body }) });
      assert.equal(res.status, 201, res.text);
      return res.body.item;
    };
    const fromPlain = await made(plain.id);
    assert.equal(fromPlain.body, RAW);
    assert.equal(fromPlain.source_text_kind, "recognized");
    const fromOptimized = await made(optimized.id);
    assert.equal(fromOptimized.body, "So we moved the cluster to cooper netties last week.");
    assert.equal(fromOptimized.source_text_kind, "optimized");
    const fromEdit = await made(edited.id);
    assert.equal(fromEdit.body, EDITED);
    assert.equal(fromEdit.source_text_kind, "edited");
    const givenBody = await made(edited.id, "My own words.");
    assert.equal(givenBody.body, "My own words.");
    assert.equal(givenBody.source_text_kind, null);
    assert.equal((await content.get(user.key, fromEdit.id)).body.item.source_text_kind, "edited");

    // A note's posts are found again by its id (newest first), and only its own.
    const ofEdited = await content.list(user.key, `?source_transcription_id=${edited.id}`);
    assert.equal(ofEdited.status, 200, ofEdited.text);
    assert.deepEqual(ofEdited.body.items.map((i: { id: string }) => i.id), [givenBody.id, fromEdit.id]);
    const ofPlain = await content.list(user.key, `?source_transcription_id=${plain.id}`);
    assert.deepEqual(ofPlain.body.items.map((i: { id: string }) => i.id), [fromPlain.id]);
    const stranger = await createTestUser();
    assert.deepEqual((await content.list(stranger.key, `?source_transcription_id=${plain.id}`)).body.items, []);
  });
});

describe("long transcripts", () => {
  test("an edit of 900,000 characters (a two-hour recording) saves; over the operation's body limit → 413", async () => {
    const user = await createTestUser();
    const note = await transcriptionOf(user);
    const words = "and then we talked about the release plan for the next quarter ";
    const long = words.repeat(Math.ceil(900_000 / words.length)).slice(0, 900_000);
    const saved = await edit(user.key, note.id, { text: long });
    assert.equal(saved.status, 200, saved.text.slice(0, 300));
    assert.equal(saved.body.text.length, 900_000);
    // 2,200,000 CJK characters at 3 bytes each: over the 6 MiB body limit, refused before it is parsed.
    const tooLarge = await edit(user.key, note.id, { text: "語".repeat(2_200_000) });
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.body.error.code, "payload_too_large");
    assert.equal(tooLarge.body.error.request_id, tooLarge.headers.get("x-request-id"));
    assert.match(tooLarge.body.error.message, /6291456 bytes/);
    const overCharacters = await edit(user.key, note.id, { text: "a".repeat(1_000_001) });
    assert.equal(overCharacters.status, 400);
    assert.equal(overCharacters.body.error.code, "validation_failed");
  });

  test("the longest text, written the way Python's json.dumps writes it (every character as \\uXXXX), saves", async () => {
    const user = await createTestUser();
    const note = await transcriptionOf(user);
    // 1,000,000 UTF-16 units, each escaped (6 bytes): what ensure_ascii (json.dumps' default, also in
    // sdk/python) sends for Japanese text; 6,000,010 bytes, so any limit under 6 bytes a unit refuses it.
    const body = `{"text":"${"\\u8a9e".repeat(500_000)}${"\\ud83d\\ude00".repeat(250_000)}"}`;
    assert.ok(Buffer.byteLength(body) > 6_000_000);
    const saved = await call(editTranscription, { method: "PATCH", ...at(note.id), key: user.key, body, headers: { "content-type": "application/json" } });
    assert.equal(saved.status, 200, saved.text.slice(0, 300));
    assert.equal(saved.body.text.length, 1_000_000);
    assert.equal(saved.body.text.slice(0, 2), "語語");
    assert.equal(saved.body.text.slice(-2), "😀");
  });
});
