// Issue 60, item 5: a second pass left by a process that stopped (kill -9) is not "improving" for
// 10 minutes. A running or waiting pass renews text_improving_since every IMPROVING_RENEWED_MS; a
// note whose pass was not renewed for three times that says text_improving: false and keeps its text.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { GET as getNote } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { db } from "@/lib/db/client.ts";
import { IMPROVING_RENEWED_MS } from "@/lib/notes/present-note.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestNote, createTestUser, type TestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";

const database = setUpTestDatabase();
let user: TestUser;
before(async () => {
  await database.ready;
  user = await createTestUser();
});

test("renewed within 3 × IMPROVING_RENEWED_MS: improving; not renewed since (its process gone): not, and the live text kept", async () => {
  const prisma = await db();
  const note = await createTestNote(user, "the live text");
  const read = async (sinceMsAgo: number) => {
    await prisma.note.update({ where: { id: note.id }, data: { textImprovingSince: new Date(Date.now() - sinceMsAgo) } });
    return (await call(getNote, { path: `/api/v1/transcriptions/${note.id}`, key: user.key, params: { id: note.id } })).body;
  };
  assert.equal((await read(IMPROVING_RENEWED_MS)).text_improving, true);
  const left = await read(3 * IMPROVING_RENEWED_MS + 1_000);
  assert.equal(left.text_improving, false);
  assert.equal(left.text, "the live text");
  assert.equal(left.text_improved_at, null);
  assert.ok(3 * IMPROVING_RENEWED_MS <= 2 * 60_000, "a note left by a stopped process says so within two minutes");
});
