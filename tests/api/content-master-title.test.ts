// A post made from a note is named as the note is (issue 44, item 7): the title the person gave
// it, else its insights' title; its first words only when it has neither. Posts and their share
// sheet showed the note's first words although it had a title.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { POST as createItem } from "@/app/api/v1/content/items/route.ts";
import { db } from "@/lib/db/client.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestNote, createTestUser, type TestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";

const database = setUpTestDatabase();
let user: TestUser;
before(async () => {
  await database.ready;
  user = await createTestUser();
});

const TEXT = "So I was thinking about the budget again this morning.\nWe should move the offsite to May.";
const insights = (title: string) => ({
  title, summary: "Move the offsite to May.", key_points: [], action_items: [], written_by: "offline", offline_reason: null, updated_at: "2026-11-20T08:00:00.000Z",
});
const fromNote = (id: string, extra: Record<string, string> = {}) =>
  call(createItem, { method: "POST", path: "/api/v1/content/items", key: user.key, json: { source_transcription_id: id, ...extra } });

test("the insights' title names the post, not the note's first words", async () => {
  const note = await createTestNote(user, TEXT);
  await (await db()).note.update({ where: { id: note.id }, data: { insights: insights("Offsite in May") } });
  const made = await fromNote(note.id);
  assert.equal(made.status, 201, made.text);
  assert.equal(made.body.item.title, "Offsite in May");
  assert.equal(made.body.item.body, TEXT);
});

test("the title the person gave the note wins over the insights'; a title sent with the request over both", async () => {
  const note = await createTestNote(user, TEXT);
  await (await db()).note.update({ where: { id: note.id }, data: { title: "Budget thoughts", insights: insights("Offsite in May") } });
  assert.equal((await fromNote(note.id)).body.item.title, "Budget thoughts");
  assert.equal((await fromNote(note.id, { title: "My own" })).body.item.title, "My own");
});

test("without a title or insights: the first line, as before", async () => {
  const note = await createTestNote(user, TEXT);
  assert.equal((await fromNote(note.id)).body.item.title, "So I was thinking about the budget again this morning.");
  // Insights without a usable title (blank) fall back the same way.
  await (await db()).note.update({ where: { id: note.id }, data: { insights: insights("  ") } });
  assert.equal((await fromNote(note.id)).body.item.title, "So I was thinking about the budget again this morning.");
});
