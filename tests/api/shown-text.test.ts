import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { before, describe, test } from "node:test";
import { POST as askRoute } from "@/app/api/v1/ask/route.ts";
import { POST as createItem } from "@/app/api/v1/content/items/route.ts";
import { GET as getRecordingRoute } from "@/app/api/v1/recordings/[recording_id]/route.ts";
import { GET as listTranscriptions } from "@/app/api/v1/transcriptions/route.ts";
import { PATCH as editTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { db } from "@/lib/db/client.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";

// Issue 58: the text a note shows (the person's edit, else its completed clean-up unless blank,
// else the recognized text; lib/notes/store/shown-text.ts and its SQL twin) is the one search
// snippets are cut from, Ask quotes, and a post made from the note copies: here with a blank
// clean-up, and with a recording in parts one part of which was edited.

const database = setUpTestDatabase();
before(() => database.ready);

/** A note spoken as `text` (its words timed evenly), with a completed clean-up `cleanText`; a part of `recording` when given. */
async function spokenNote(user: TestUser, text: string, cleanText: string, recording?: { id: string; part: number }) {
  const prisma = await db();
  const optimization = await prisma.cleanUpWorkflow.create({
    data: {
      userId: user.id, requestHash: randomBytes(32).toString("hex"), name: "transcript-optimization", optimizer: "local", mode: "inline",
      status: "completed", callId: "call", chunksTotal: 1, chunksDone: 1, optimizedText: cleanText, language: "en",
    },
  });
  const tokens = text.split(/\s+/);
  const segments = [{ start: 0, end: tokens.length * 0.5, text, words: tokens.map((word, i) => ({ word, start: i * 0.5, end: (i + 1) * 0.5 })) }];
  return prisma.note.create({
    data: {
      userId: user.id, text, rawText: text, language: "en", durationSec: tokens.length * 0.5, engine: "test", segments,
      audioSha256: "0".repeat(64), requestHash: randomBytes(32).toString("hex"), optimizationId: optimization.id,
      recordingId: recording?.id ?? null, recordingPart: recording?.part ?? null,
    },
  });
}

type Citation = { note_id: string; quote: string; start: number | null };
type Listed = { id: string; search: { snippet: { text: string }[] } };

/** What each way of reading a note shows of it: its search snippet (whole: the notes are short), Ask's quotes, a new post's body. */
async function readings(user: TestUser, noteIds: string[], word: string) {
  const found = await call(listTranscriptions, { path: `/api/v1/transcriptions?q=${word}`, key: user.key });
  assert.equal(found.status, 200, found.text);
  const snippets = new Map((found.body.transcriptions as Listed[]).map((n) => [n.id, n.search.snippet.map((p) => p.text).join("")]));
  const asked = await call(askRoute, { method: "POST", path: "/api/v1/ask", key: user.key, json: { question: `What did I say about the ${word}?` } });
  assert.equal(asked.status, 200, asked.text);
  const citations = asked.body.citations as Citation[];
  const posts = new Map<string, string>();
  for (const id of noteIds) {
    const made = await call(createItem, { method: "POST", path: "/api/v1/content/items", key: user.key, json: { source_transcription_id: id } });
    assert.equal(made.status, 201, made.text);
    posts.set(id, made.body.item.body);
  }
  return { snippets, quotes: (id: string) => citations.filter((c) => c.note_id === id), posts };
}

describe("search, Ask and posts read the text a note shows (issue 58)", () => {
  test("a blank clean-up: all three read the recognized text", async () => {
    const user = await createTestUser();
    const recognized = "the budget review moves to friday afternoon";
    const note = await spokenNote(user, recognized, " \n\u00a0");
    const { snippets, quotes, posts } = await readings(user, [note.id], "budget");
    assert.equal(snippets.get(note.id), recognized);
    assert.deepEqual(quotes(note.id).map((c) => c.quote), [recognized]);
    assert.equal(quotes(note.id)[0].start, 0, "quoted at the moment it was said");
    assert.equal(posts.get(note.id), recognized);
  });

  test("a recording in parts with one part edited: the edited part reads as edited, the other as cleaned up", async () => {
    const user = await createTestUser();
    const recording = { id: `rec-${randomBytes(4).toString("hex")}` };
    const first = await spokenNote(user, "first we looked at the pricing page", "First, we looked at the pricing page.", { ...recording, part: 0 });
    const second = await spokenNote(user, "then the pricing goes up to twelve dollars", "Then the pricing goes up to twelve dollars, cleaned.", { ...recording, part: 1 });
    const edit = "Then the pricing goes up to twelve dollars a month.";
    const edited = await call(editTranscription, { method: "PATCH", path: `/api/v1/transcriptions/${second.id}`, params: { id: second.id }, key: user.key, json: { text: edit } });
    assert.equal(edited.status, 200, edited.text);

    const { snippets, quotes, posts } = await readings(user, [first.id, second.id], "pricing");
    assert.equal(snippets.get(first.id), "First, we looked at the pricing page.");
    assert.equal(snippets.get(second.id), edit);
    assert.deepEqual(quotes(first.id).map((c) => c.quote), ["First, we looked at the pricing page."]);
    assert.deepEqual(quotes(second.id).map((c) => c.quote), [edit]);
    // The edit keeps the moments of the words it kept (lib/ask/passages.ts).
    assert.equal(quotes(second.id)[0].start, 0);
    assert.equal(posts.get(first.id), "First, we looked at the pricing page.");
    assert.equal(posts.get(second.id), edit);

    // The joined recording shows each part as it shows: the edit, not the part's clean-up.
    const joined = await call(getRecordingRoute, { path: `/api/v1/recordings/${recording.id}`, params: { recording_id: recording.id }, key: user.key });
    assert.equal(joined.status, 200, joined.text);
    assert.equal(joined.body.optimization.text, `First, we looked at the pricing page.\n\n${edit}`);
  });
});
