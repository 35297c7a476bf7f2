import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createTestUser } from "@/tests/support/factories.ts";
import { content, createChannel, createMaster, LONG_NOTE, setUpContentTests, waitForGeneration } from "@/tests/api/content-support.ts";
import { db } from "@/lib/db/client.ts";
import { contentHash } from "@/lib/posts/items/content-hash.ts";
import { postLength } from "@/lib/channels/platforms.ts";

setUpContentTests();

type Variant = {
  id: string;
  channel_id: string;
  title: string;
  body: string;
  content_hash: string;
  version: number;
  posts: string[];
  approval: { state: string; approved_hash: string | null };
  freshness: string;
  generation: { state: string; task_id: string };
};
const variantFor = (family: { variants: Variant[] }, channelId: string) => family.variants.find((v) => v.channel_id === channelId)!;

describe("the content state machine", () => {
  test("generate → edit → approve → edit invalidates → re-approve → master edit → stale → regenerate → approve → confirm", async () => {
    const { key } = await createTestUser();
    const linkedin = await createChannel(key, "linkedin");
    const x = await createChannel(key, "x");
    const master = await createMaster(key, LONG_NOTE, "Moving to Postgres");
    assert.equal(master.kind, "master");
    assert.equal(master.content_hash, contentHash("Moving to Postgres", LONG_NOTE));

    const created = await content.variants(key, master.id, {
      client_request_id: "flow-1",
      targets: [
        { channel_id: linkedin, preset_id: "builtin-standard" },
        { channel_id: x, preset_id: "builtin-thread" },
      ],
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.variants.length, 2);
    assert.ok(created.body.variants.every((v: { created: boolean; task_id: string }) => v.created && v.task_id));

    // Generation runs on the job queue; the family shows it finishing.
    let family = await waitForGeneration(key, master.id);
    assert.equal(family.master.id, master.id);
    let li: Variant = variantFor(family, linkedin);
    const thread: Variant = variantFor(family, x);
    for (const v of [li, thread]) {
      assert.equal(v.generation.state, "succeeded");
      assert.equal(v.approval.state, "awaiting_approval");
      assert.equal(v.freshness, "fresh");
      assert.equal(v.content_hash, contentHash(v.title, v.body));
    }
    assert.ok(li.body.includes("shadow-read setup"), "LinkedIn (3,000) keeps the whole note");
    assert.ok(thread.posts.length > 1, "the note does not fit one X post");
    for (const post of thread.posts) assert.ok(postLength("x", post) <= 280, `X post of ${postLength("x", post)} characters`);
    // The family reads the same from a variant's id.
    assert.equal((await content.family(key, li.id)).body.master.id, master.id);

    // Edit (guarded by the hash last read), then approve exactly that content.
    const edited = await content.edit(key, li.id, { expected_content_hash: li.content_hash, body: `${li.body}\n\nThoughts?` });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.item.version, li.version + 1);
    const staleEdit = await content.edit(key, li.id, { expected_content_hash: li.content_hash, body: "lost update" });
    assert.equal(staleEdit.status, 409);
    assert.equal(staleEdit.body.error.code, "edit_conflict");
    li = edited.body.item;
    const wrongHash = await content.approve(key, li.id, { content_hash: contentHash(li.title, "something else") });
    assert.equal(wrongHash.status, 409);
    const approved = await content.approve(key, li.id, { content_hash: li.content_hash });
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.body.item.approval.state, "approved");
    assert.equal(approved.body.item.approval.approved_hash, li.content_hash);

    // Any edit invalidates the approval; approving the new content restores it.
    const reedited = await content.edit(key, li.id, { expected_content_hash: li.content_hash, title: "Postgres, finally" });
    assert.equal(reedited.body.item.approval.state, "awaiting_approval");
    li = reedited.body.item;
    assert.equal((await content.approve(key, li.id, { content_hash: li.content_hash })).body.item.approval.state, "approved");

    // The master changes after the snapshot: the variant is stale, and manual confirmation is refused.
    const masterEdit = await content.edit(key, master.id, { expected_content_hash: master.content_hash, body: `${LONG_NOTE}\n\nUpdate: a year later, still happy.` });
    assert.equal(masterEdit.status, 200);
    family = (await content.family(key, master.id)).body;
    assert.equal(variantFor(family, linkedin).freshness, "stale");
    assert.equal(variantFor(family, linkedin).approval.state, "approved");
    const refusedStale = await content.manual(key, li.id, { client_event_id: "m-1", content_hash: li.content_hash });
    assert.equal(refusedStale.status, 409);
    assert.equal(refusedStale.body.error.code, "stale");
    const refusedUnapproved = await content.manual(key, thread.id, { client_event_id: "m-2", content_hash: thread.content_hash });
    assert.equal(refusedUnapproved.status, 409);
    assert.equal(refusedUnapproved.body.error.code, "not_approved");

    // Regenerating from the master's current content refreshes it; the new content needs approval.
    const regen = await content.regenerate(key, li.id, { source: "master", expected_content_hash: li.content_hash });
    assert.equal(regen.status, 202, regen.text);
    assert.ok(regen.body.task_id);
    family = await waitForGeneration(key, master.id);
    li = variantFor(family, linkedin);
    assert.equal(li.generation.task_id, regen.body.task_id);
    assert.equal(li.generation.state, "succeeded");
    assert.equal(li.freshness, "fresh");
    assert.ok(li.body.includes("a year later"));
    assert.equal(li.approval.state, "awaiting_approval");
    const notYet = await content.manual(key, li.id, { client_event_id: "m-3", content_hash: li.content_hash });
    assert.equal(notYet.body.error.code, "not_approved");
    assert.equal((await content.approve(key, li.id, { content_hash: li.content_hash })).status, 200);
    const confirmed = await content.manual(key, li.id, {
      client_event_id: "m-4",
      content_hash: li.content_hash,
      published_url: "https://www.linkedin.com/feed/update/urn:li:activity:1",
    });
    assert.equal(confirmed.status, 201, confirmed.text);
    assert.equal(confirmed.body.delivery.state, "confirmed_manual");
    assert.equal(confirmed.body.delivery.method, "manual");
    assert.equal(confirmed.body.delivery.content_hash, li.content_hash);
    // The same confirmation again is a replay, not a second delivery.
    const again = await content.manual(key, li.id, {
      client_event_id: "m-4",
      content_hash: li.content_hash,
      published_url: "https://www.linkedin.com/feed/update/urn:li:activity:1",
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.replayed, true);
    assert.equal(again.body.delivery.id, confirmed.body.delivery.id);
  });

  test("regenerate from the snapshot keeps the source snapshot even after the master changed", async () => {
    const { key } = await createTestUser();
    const channel = await createChannel(key, "mastodon");
    const master = await createMaster(key, "First version of the note.");
    await content.variants(key, master.id, { client_request_id: "snap", targets: [{ channel_id: channel, preset_id: "builtin-standard" }] });
    const before = (await waitForGeneration(key, master.id)).variants[0];
    await content.edit(key, master.id, { expected_content_hash: master.content_hash, body: "Second version." });
    const regen = await content.regenerate(key, before.id);
    assert.equal(regen.status, 202);
    const after = (await waitForGeneration(key, master.id)).variants[0];
    assert.equal(after.generation.task_id, regen.body.task_id);
    assert.equal(after.body, "First version of the note.");
    assert.deepEqual(after.source, before.source);
    assert.equal(after.freshness, "stale");
  });

  test("a master can be made from one of your transcriptions, not someone else's", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const prisma = await db();
    const transcription = await prisma.note.create({
      data: {
        userId: alice.id,
        text: "Notes from the standup.\nShip the content workflow.",
        rawText: "notes from the standup ship the content workflow",
        language: "en",
        durationSec: 4,
        engine: "test",
        audioSha256: "0".repeat(64),
        requestHash: "1".repeat(64),
      },
    });
    const made = await content.create(alice.key, { source_transcription_id: transcription.id });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.item.body, "Notes from the standup.\nShip the content workflow.");
    assert.equal(made.body.item.title, "Notes from the standup.");
    assert.equal(made.body.item.source_transcription_id, transcription.id);
    const foreign = await content.create(bob.key, { source_transcription_id: transcription.id });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, "not_found");
  });

  test("masters are listed newest first and paged", async () => {
    const { key } = await createTestUser();
    for (const n of [1, 2, 3]) await createMaster(key, `note ${n}`, `Note ${n}`);
    const first = await content.list(key, "?limit=2");
    assert.deepEqual(first.body.items.map((i: { title: string }) => i.title), ["Note 3", "Note 2"]);
    const second = await content.list(key, `?limit=2&cursor=${first.body.next_cursor}`);
    assert.deepEqual(second.body.items.map((i: { title: string }) => i.title), ["Note 1"]);
    assert.equal(second.body.next_cursor, null);
    // Cursors are opaque (the same format as the other lists): a raw item id is not one.
    assert.notEqual(first.body.next_cursor, first.body.items[1].id);
    for (const cursor of [first.body.items[1].id, "not-a-cursor"]) {
      const refused = await content.list(key, `?limit=2&cursor=${cursor}`);
      assert.equal(refused.status, 400, cursor);
      assert.equal(refused.body.error.code, "validation_failed");
    }
  });
});
