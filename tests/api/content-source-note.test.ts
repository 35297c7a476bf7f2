import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PATCH as editTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { POST as refreshRoute } from "@/app/api/v1/content/items/[id]/refresh-from-note/route.ts";
import { db } from "@/lib/db/client.ts";
import { content, createChannel, setUpContentTests, waitForGeneration } from "@/tests/api/content-support.ts";
import { createTestNote, createTestUser, type TestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";

// A master made from a note remembers which version of the note's text it copied: when the note
// changes, the family says so, and "Update" copies it again, which makes the posts stale.

setUpContentTests();

const RAW = "we ship the new editor on friday and my team will demo it";
const editNote = (key: string, id: string, json: unknown) =>
  call(editTranscription, { method: "PATCH", path: `/api/v1/transcriptions/${id}`, params: { id }, key, json });
const refresh = (key: string | undefined, id: string, json: unknown) =>
  call(refreshRoute, { method: "POST", path: `/api/v1/content/items/${id}/refresh-from-note`, params: { id }, key, json });

async function noteWithPosts(user: TestUser) {
  const note = await createTestNote(user, RAW, "We ship the new editor on Friday, and my team will demo it.");
  const made = await content.create(user.key, { source_transcription_id: note.id });
  assert.equal(made.status, 201, made.text);
  const channel = await createChannel(user.key, "x");
  const variants = await content.variants(user.key, made.body.item.id, { client_request_id: "one", targets: [{ channel_id: channel, preset_id: "builtin-standard" }] });
  assert.equal(variants.status, 201, variants.text);
  const family = await waitForGeneration(user.key, made.body.item.id);
  const variant = family.variants[0];
  assert.equal((await content.approve(user.key, variant.id, { content_hash: variant.content_hash })).status, 200);
  return { note, master: made.body.item, variant };
}

describe("a master and its note", () => {
  test("copied from the note: not outdated, with the note's updated_at; a body given in the request has neither", async () => {
    const user = await createTestUser();
    const { note, master } = await noteWithPosts(user);
    assert.equal(master.source_outdated, false);
    assert.equal(master.source_note_updated_at, note.updatedAt.toISOString());
    const family = (await content.family(user.key, master.id)).body;
    assert.equal(family.master.source_outdated, false);
    assert.equal(family.variants[0].source_outdated, null, "a variant follows its master, not the note");
    const own = await content.create(user.key, { source_transcription_id: note.id, body: "My own words." });
    assert.equal(own.body.item.source_outdated, null);
    assert.equal(own.body.item.source_note_updated_at, null);
  });

  test("the note's text changes: the master says so (family, item, list); tags and ticks do not count", async () => {
    const user = await createTestUser();
    const { note, master } = await noteWithPosts(user);
    const prisma = await db();
    await prisma.note.update({ where: { id: note.id }, data: { tags: ["work"], pinned: true } });
    assert.equal((await content.family(user.key, master.id)).body.master.source_outdated, false, "a tag is not the text");

    const edited = await editNote(user.key, note.id, { text: "We ship the new editor on Friday, and our team will demo it." });
    assert.equal(edited.status, 200, edited.text);
    const family = (await content.family(user.key, master.id)).body;
    assert.equal(family.master.source_outdated, true);
    assert.equal(family.master.source_note_updated_at, edited.body.updated_at);
    assert.equal((await content.get(user.key, master.id)).body.item.source_outdated, true);
    const listed = (await content.list(user.key, `?source_transcription_id=${note.id}`)).body.items;
    assert.deepEqual(listed.map((i: { source_outdated: boolean }) => i.source_outdated), [true]);
  });

  test("Update copies the note again: a new version, the variants stale and no longer shareable as approved", async () => {
    const user = await createTestUser();
    const { note, master, variant } = await noteWithPosts(user);
    const text = "We ship the new editor on Friday, and our team will demo it.";
    await editNote(user.key, note.id, { text });

    const res = await refresh(user.key, master.id, { expected_content_hash: master.content_hash });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.item.body, text);
    assert.equal(res.body.item.version, master.version + 1);
    assert.equal(res.body.item.source_text_kind, "edited");
    assert.equal(res.body.item.source_outdated, false);
    const family = (await content.family(user.key, master.id)).body;
    assert.equal(family.variants[0].freshness, "stale");
    const confirm = await content.manual(user.key, variant.id, { client_event_id: "m1", content_hash: family.variants[0].content_hash });
    assert.equal(confirm.status, 409, "a stale variant's approval does not count");

    // A second Update with the old hash is a conflict; with the new one, nothing changes.
    assert.equal((await refresh(user.key, master.id, { expected_content_hash: master.content_hash })).body.error.code, "edit_conflict");
    const again = await refresh(user.key, master.id, { expected_content_hash: res.body.item.content_hash });
    assert.equal(again.body.item.version, res.body.item.version);
  });

  // Issue 57 item 4: one tap, not one per post.
  test("Update with rewrite_posts writes every post not approved again from the new text; an approved post stays, stale, still approved", async () => {
    const user = await createTestUser();
    const { note, master, variant: approved } = await noteWithPosts(user);
    const bluesky = await createChannel(user.key, "bluesky");
    await content.variants(user.key, master.id, { client_request_id: "two", targets: [{ channel_id: bluesky, preset_id: "builtin-standard" }] });
    const before = await waitForGeneration(user.key, master.id);
    const open = before.variants.find((v: { id: string }) => v.id !== approved.id)!;
    await editNote(user.key, note.id, { text: "We ship the new editor on Monday, and our team will demo it." });

    const res = await refresh(user.key, master.id, { expected_content_hash: master.content_hash, rewrite_posts: true });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.item.body, /Monday/);
    assert.deepEqual(res.body.rewriting, [open.id], "only the post not approved");
    const family = await waitForGeneration(user.key, master.id);
    const rewritten = family.variants.find((v: { id: string }) => v.id === open.id);
    assert.equal(rewritten.freshness, "fresh");
    assert.match(rewritten.body, /Monday/);
    const kept = family.variants.find((v: { id: string }) => v.id === approved.id);
    assert.equal(kept.freshness, "stale");
    assert.equal(kept.body, approved.body);
    assert.equal(kept.approval.state, "approved", "its approval history stays");
    // Without rewrite_posts (the older clients): the master only, as before.
    await editNote(user.key, note.id, { text: "We ship the new editor on Tuesday, and our team will demo it." });
    const plain = await refresh(user.key, master.id, { expected_content_hash: res.body.item.content_hash });
    assert.deepEqual(plain.body.rewriting, []);
    assert.equal((await content.family(user.key, master.id)).body.variants.find((v: { id: string }) => v.id === open.id).freshness, "stale");
  });

  test("refused: no key (401), another user's master or a variant (404), a master not copied from a note, or a deleted note (409)", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const { note, master, variant } = await noteWithPosts(user);
    const body = { expected_content_hash: master.content_hash };
    assert.equal((await refresh(undefined, master.id, body)).status, 401);
    assert.equal((await refresh(other.key, master.id, body)).status, 404);
    assert.equal((await refresh(user.key, variant.id, { expected_content_hash: variant.content_hash })).status, 404);
    assert.equal((await refresh(user.key, master.id, {})).body.error.code, "validation_failed");
    const own = (await content.create(user.key, { body: "Typed by hand." })).body.item;
    const notCopied = await refresh(user.key, own.id, { expected_content_hash: own.content_hash });
    assert.equal(notCopied.status, 409);
    assert.equal(notCopied.body.error.code, "no_source_note");
    await (await db()).note.delete({ where: { id: note.id } });
    assert.equal((await content.family(user.key, master.id)).body.master.source_outdated, null);
    assert.equal((await refresh(user.key, master.id, body)).body.error.code, "no_source_note");
  });
});
