// Issue 67 item 4: posts start at Stop. As soon as a new note's text is ready, its posts for the
// person's usual channels (marked "write for every note", or shared to recently, most used first)
// are written, so "Make posts" opens on posts already there; with no usual channel nothing is.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import { PATCH as patchChannel } from "@/app/api/v1/channels/[id]/route.ts";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { content, createChannel, setUpContentTests, waitForGeneration } from "@/tests/api/content-support.ts";
import { JFK_WAV } from "@/tests/support/audio.ts";
import { createTestUser, type TestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
setUpContentTests();

async function record(user: TestUser): Promise<string> {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(await readFile(JFK_WAV))], { type: "audio/wav" }), "note.wav");
  const res = await call(transcribe, { method: "POST", path: "/transcribe", key: user.key, body });
  assert.equal(res.status, 200, res.text.slice(0, 300));
  return res.body.id;
}
const postsOf = async (user: TestUser, noteId: string) => (await content.list(user.key, `?source_transcription_id=${noteId}`)).body.items as { id: string }[];
const everyNote = (user: TestUser, id: string, on: boolean) =>
  call(patchChannel, { method: "PATCH", path: `/api/v1/channels/${id}`, params: { id }, key: user.key, json: { write_for_every_note: on } });

describe("posts start at Stop for the usual channels (issue 67)", () => {
  test("a channel marked 'write for every note': a new note's post is written without Make posts; another channel is not", async () => {
    const user = await createTestUser();
    const linkedin = await createChannel(user.key, "linkedin");
    await createChannel(user.key, "x");
    const marked = await everyNote(user, linkedin, true);
    assert.equal(marked.status, 200, marked.text);
    assert.equal(marked.body.channel.write_for_every_note, true);
    const noteId = await record(user);
    const masters = await postsOf(user, noteId);
    assert.equal(masters.length, 1, "one set of posts made from the note");
    const family = await waitForGeneration(user.key, masters[0].id);
    assert.deepEqual(family.variants.map((v: { channel_id: string }) => v.channel_id), [linkedin]);
    assert.equal(family.variants[0].generation.state, "succeeded");
    assert.ok(family.variants[0].body.length > 20, family.variants[0].body);
  });

  test("channels shared to recently are usual, the most used first", async () => {
    const user = await createTestUser();
    const x = await createChannel(user.key, "x");
    const linkedin = await createChannel(user.key, "linkedin");
    await createChannel(user.key, "newsletter"); // never shared to: not usual
    // Earlier posts: LinkedIn shared twice, X once.
    const earlier = await record(user);
    const made = await content.create(user.key, { source_transcription_id: earlier });
    const variants = await content.variants(user.key, made.body.item.id, {
      client_request_id: "earlier",
      targets: [{ channel_id: x, preset_id: "builtin-short" }, { channel_id: linkedin, preset_id: "builtin-standard" }],
    });
    assert.equal(variants.status, 201, variants.text);
    const family = await waitForGeneration(user.key, made.body.item.id);
    const byChannel = new Map(family.variants.map((v: { channel_id: string; id: string; content_hash: string }) => [v.channel_id, v]));
    for (const [channel, times] of [[linkedin, 2], [x, 1]] as const) {
      const post = byChannel.get(channel) as { id: string; content_hash: string };
      assert.equal((await content.approve(user.key, post.id, { content_hash: post.content_hash })).status, 200);
      for (let i = 0; i < times; i++) {
        const shared = await content.deliver(user.key, post.id, { client_event_id: `${channel}-${i}`, method: "share", state: "initiated" });
        assert.ok([200, 201].includes(shared.status), shared.text);
      }
    }
    const noteId = await record(user);
    const [master] = await postsOf(user, noteId);
    assert.ok(master, "posts were started for the new note");
    const written = await waitForGeneration(user.key, master.id);
    assert.deepEqual(written.variants.map((v: { channel_id: string }) => v.channel_id), [linkedin, x], "LinkedIn (shared twice) first");
  });

  test("no usual channel: nothing is written until the person asks", async () => {
    const user = await createTestUser();
    await createChannel(user.key, "linkedin");
    const noteId = await record(user);
    assert.deepEqual(await postsOf(user, noteId), []);
  });
});
