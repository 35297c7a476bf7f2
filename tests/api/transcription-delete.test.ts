import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DELETE as deleteNote, GET as getNote } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { db } from "@/lib/db/client.ts";
import { content, setUpContentTests } from "@/tests/api/content-support.ts";
import { audioFileOf, exists, noteOf, postsOf } from "@/tests/api/user-data-support.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";

// Issue 24 item 5: DELETE /api/v1/transcriptions/{id} deletes a note, its recording and what
// only it used; posts made from it only with ?with_posts=true.

setUpContentTests({ workers: false });

const at = (id: string, query = "") => ({ path: `/api/v1/transcriptions/${id}${query}`, params: { id } });
const del = (key: string | undefined, id: string, query = "") => call(deleteNote, { method: "DELETE", ...at(id, query), key });

async function rowsOf(note: { id: string; optimizationId: string | null; requestHash: string; userId: string }) {
  const prisma = await db();
  return {
    transcription: await prisma.note.count({ where: { id: note.id } }),
    optimization: note.optimizationId ? await prisma.cleanUpWorkflow.count({ where: { id: note.optimizationId } }) : 0,
    optimizationChunks: note.optimizationId ? await prisma.cleanUpChunk.count({ where: { workflowId: note.optimizationId } }) : 0,
    recognition: await prisma.recognitionWorkflow.count({ where: { userId: note.userId, requestHash: note.requestHash } }),
    recognitionPieces: await prisma.recognitionPiece.count({ where: { workflow: { userId: note.userId, requestHash: note.requestHash } } }),
    audioChunks: await prisma.noteAudioChunk.count({ where: { transcriptionId: note.id } }),
  };
}
const NONE = { transcription: 0, optimization: 0, optimizationChunks: 0, recognition: 0, recognitionPieces: 0, audioChunks: 0 };

describe("DELETE /api/v1/transcriptions/{id}", () => {
  for (const store of ["file", "database"] as const) {
    test(`${store} store: the note, its recording, optimization and recognition rows are gone; its posts stay`, async () => {
      const user = await createTestUser();
      const other = await createTestUser();
      const note = await noteOf(user, { audio: store, optimizedText: "So this is the optimized text." });
      const theirs = await noteOf(other, { audio: store, optimizedText: "Theirs." });
      const { master, variant } = await postsOf(user, note.id);
      const before = await rowsOf(note);
      assert.equal(before.transcription, 1);
      assert.equal(before.optimizationChunks, 1);
      assert.equal(before.recognitionPieces, 1);
      if (store === "file") assert.ok(exists(audioFileOf(user.id, note.id)));
      else assert.ok(before.audioChunks > 1);

      const res = await del(user.key, note.id);
      assert.equal(res.status, 204, res.text);
      assert.equal(res.text, "");
      assert.deepEqual(await rowsOf(note), NONE);
      assert.equal(exists(audioFileOf(user.id, note.id)), false);
      assert.equal((await call(getNote, { ...at(note.id), key: user.key })).status, 404);

      // The posts stay; they still name their (now missing) source.
      const kept = await content.get(user.key, master.id);
      assert.equal(kept.status, 200, kept.text);
      assert.equal(kept.body.item.source_transcription_id, note.id);
      assert.equal((await content.get(user.key, variant.id)).status, 200);

      // The other user's note is untouched.
      const after = await rowsOf(theirs);
      assert.equal(after.transcription, 1);
      assert.equal(after.optimizationChunks, 1);
      if (store === "file") assert.ok(exists(audioFileOf(other.id, theirs.id)));
      else assert.ok(after.audioChunks > 1);

      assert.equal((await del(user.key, note.id)).status, 404, "already deleted");
    });
  }

  test("?with_posts=true also deletes the posts made from it (masters, variants, tasks, deliveries)", async () => {
    const user = await createTestUser();
    const note = await noteOf(user, { audio: "file" });
    const { master, variant } = await postsOf(user, note.id);
    const unrelated = await postsOf(user, null, "A post from no note.");
    const res = await del(user.key, note.id, "?with_posts=true");
    assert.equal(res.status, 204, res.text);
    const prisma = await db();
    assert.equal(await prisma.post.count({ where: { id: { in: [master.id, variant.id] } } }), 0);
    assert.equal(await prisma.generationTask.count({ where: { variantId: variant.id } }), 0);
    assert.equal(await prisma.contentDelivery.count({ where: { itemId: variant.id } }), 0);
    assert.equal((await content.get(user.key, unrelated.master.id)).status, 200);
    assert.equal((await content.get(user.key, master.id)).status, 404);
  });

  test("an optimization shared with another upload of the same recording stays", async () => {
    const user = await createTestUser();
    const note = await noteOf(user, { optimizedText: "Shared." });
    const prisma = await db();
    const twin = await prisma.note.create({
      data: { ...note, id: undefined, idempotencyKey: null, createdAt: undefined, updatedAt: undefined, segments: [], insights: undefined, textBeforeImproved: undefined },
    });
    assert.equal((await del(user.key, note.id)).status, 204);
    assert.equal(await prisma.cleanUpWorkflow.count({ where: { id: note.optimizationId! } }), 1);
    assert.equal(await prisma.recognitionWorkflow.count({ where: { userId: user.id, requestHash: note.requestHash } }), 1);
    assert.equal((await call(getNote, { ...at(twin.id), key: user.key })).status, 200);
  });

  test("another user's id and a missing one are 404; no key is 401; a key without transcribe is 403; a bad flag is 400", async () => {
    const owner = await createTestUser();
    const stranger = await createTestUser();
    const readOnly = await createTestUser({ scopes: ["content:read"] });
    const note = await noteOf(owner, { audio: "file" });
    const foreign = await del(stranger.key, note.id);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, "not_found");
    assert.equal((await del(stranger.key, "0198c2a8-0000-7000-8000-000000000000")).status, 404);
    assert.equal((await del(undefined, note.id)).status, 401);
    assert.equal((await del(readOnly.key, note.id)).status, 403);
    const bad = await del(owner.key, note.id, "?with_posts=yes");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, "validation_failed");
    assert.equal((await del(owner.key, note.id, "?other=1")).status, 400);
    assert.ok(exists(audioFileOf(owner.id, note.id)), "nothing was deleted");
    assert.equal((await call(getNote, { ...at(note.id), key: owner.key })).status, 200);
  });
});
