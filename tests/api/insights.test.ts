import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { strFromU8, unzipSync } from "fflate";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { GET as exportRoute } from "@/app/api/v1/export/route.ts";
import { GET as listTranscriptions } from "@/app/api/v1/transcriptions/route.ts";
import { GET as getTranscription, PATCH as editTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { PATCH as tickRoute } from "@/app/api/v1/transcriptions/[id]/insights/route.ts";
import { db } from "@/lib/db/client.ts";
import { refreshInsightsAfterCleanUp } from "@/lib/insights/write-note-insights.ts";
import { refreshInsights } from "@/lib/insights/refresh-insights.ts";
import { setUpTestDatabase, testDbKind } from "../support/database.ts";
import { jfkOpening } from "../support/audio.ts";
import { createTestNote, createTestUser, type TestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";

// Issue 31 item 2: every note carries insights (title, summary, key points, action items), written
// after recognition, after an edit of the text and after the clean-up; action items tick, and the
// ticks survive a rewrite; export and search carry them.

process.env.TRANSCRIBE_ENGINE ??= "pocketsphinx";
const database = setUpTestDatabase();

const PLAN =
  "Quick update on the quarterly budget review. The marketing budget is twenty percent over because of the conference booth. " +
  "I need to call Anna about the booth invoice before Friday. Don't forget to send the updated spreadsheet to Maria. " +
  "Overall the quarterly budget looks manageable if the booth invoice gets corrected.";

const at = (id: string, suffix = "") => ({ path: `/api/v1/transcriptions/${id}${suffix}`, params: { id } });
const read = (user: TestUser, id: string) => call(getTranscription, { ...at(id), key: user.key });
const edit = (user: TestUser, id: string, json: unknown) => call(editTranscription, { method: "PATCH", ...at(id), key: user.key, json });
const tick = (key: string | undefined, id: string, json: unknown) => call(tickRoute, { method: "PATCH", ...at(id, "/insights"), key, json });
type Item = { text: string; done: boolean };

/** A note as recognized, then given the text `text` by an edit (which writes its insights). */
async function noteWithText(user: TestUser, text: string) {
  await database.ready;
  const note = await createTestNote(user, "placeholder words");
  const res = await edit(user, note.id, { text });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

describe("insights on notes (issue 31)", () => {
  test(
    "POST /transcribe answers with insights, and GET and the list carry them",
    { skip: testDbKind === "postgres" ? "recognition is database-independent; runs in the PGlite pass" : false },
    async () => {
      await database.ready;
      const user = await createTestUser();
      const body = new FormData();
      // Any speech: the first 3 s of the sample.
      body.set("audio", new Blob([new Uint8Array(await jfkOpening())]), "opening.wav");
      const res = await call(transcribe, { method: "POST", path: "/transcribe", key: user.key, body });
      assert.equal(res.status, 200, res.text);
      const { insights } = res.body;
      assert.ok(insights, "insights written with the upload");
      assert.equal(insights.written_by, "offline");
      assert.ok(insights.title.length > 0 && insights.title.length <= 60, insights.title);
      const firstWords = res.body.text.split(/\s+/).slice(0, insights.title.split(/\s+/).length).join(" ").toLowerCase();
      assert.notEqual(insights.title.toLowerCase(), firstWords);
      assert.ok(insights.summary.length > 0 && insights.summary.length <= 300);
      assert.deepEqual(insights.action_items, []);
      assert.deepEqual((await read(user, res.body.id)).body.insights, insights);
      const list = await call(listTranscriptions, { path: "/api/v1/transcriptions", key: user.key });
      assert.deepEqual(list.body.transcriptions[0].insights, insights);
    },
  );

  test("an edit of the text rewrites them; a tick is stored and kept for items whose text is unchanged", async () => {
    const user = await createTestUser();
    const note = await noteWithText(user, PLAN);
    const before = note.insights;
    assert.equal(before.title, "Quarterly budget");
    assert.ok(before.summary.length <= 300);
    assert.deepEqual(before.action_items, [
      { text: "Call Anna about the booth invoice before Friday", done: false },
      { text: "Send the updated spreadsheet to Maria", done: false },
    ]);

    const ticked = await tick(user.key, note.id, { action_items: [{ text: "Send the updated spreadsheet to Maria", done: true }] });
    assert.equal(ticked.status, 200, ticked.text);
    assert.deepEqual(ticked.body.insights.action_items.map((a: Item) => a.done), [false, true]);
    assert.equal(ticked.body.updated_at, note.updated_at, "a tick is not an edit of the note");
    assert.ok(ticked.body.insights.updated_at >= before.updated_at);
    assert.deepEqual((await read(user, note.id)).body.insights.action_items.map((a: Item) => a.done), [false, true]);

    // A rewrite: one item reworded, the ticked one unchanged, one new.
    const rewritten = await edit(user, note.id, {
      text: PLAN.replace("call Anna about the booth invoice", "email Anna about the booth invoice") + " We should book the room for March.",
    });
    assert.equal(rewritten.status, 200, rewritten.text);
    assert.deepEqual(rewritten.body.insights.action_items, [
      { text: "Email Anna about the booth invoice before Friday", done: false },
      { text: "Send the updated spreadsheet to Maria", done: true },
      { text: "Book the room for March", done: false },
    ]);

    // Untick; a title-only edit leaves the insights as they are.
    const unticked = await tick(user.key, note.id, { action_items: [{ text: "send the updated spreadsheet to maria", done: false }] });
    assert.equal(unticked.body.insights.action_items[1].done, false, "matched case aside");
    const renamed = await edit(user, note.id, { title: "Budget" });
    assert.deepEqual(renamed.body.insights, unticked.body.insights);
  });

  test("a note without commitments has no action items; German, Spanish and French commitments are found", async () => {
    const user = await createTestUser();
    const walk = await noteWithText(user, "We went to the lake this morning with the dog. The water was cold but the light over the hills was beautiful. We saw two herons near the boathouse.");
    assert.deepEqual(walk.insights.action_items, []);
    const german = await noteWithText(user, "Kurzer Stand zum Umzug des Büros. Ich muss noch den Mietvertrag unterschreiben. Nicht vergessen: die Internetleitung kündigen.");
    assert.deepEqual(german.insights.action_items.map((a: Item) => a.text), ["Den Mietvertrag unterschreiben", "Die Internetleitung kündigen"]);
  });

  test("the clean-up rewrites the insights of the notes that show it (not of edited ones)", async () => {
    const user = await createTestUser();
    const note = await createTestNote(user, "so um the garden thing", "The garden needs new fences. I have to order the fence posts on Monday.");
    assert.equal((await read(user, note.id)).body.insights, null, "not yet written");
    await refreshInsightsAfterCleanUp(note.optimizationId!);
    const cleaned = (await read(user, note.id)).body.insights;
    assert.deepEqual(cleaned.action_items, [{ text: "Order the fence posts on Monday", done: false }]);
  });

  test("ticking: 401 without a key, 404 for another user's note, 400 on bad input, 409 for an item the note does not have", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const note = await noteWithText(alice, PLAN);
    const good = { action_items: [{ text: "Send the updated spreadsheet to Maria", done: true }] };
    assert.equal((await tick(undefined, note.id, good)).status, 401);
    const foreign = await tick(bob.key, note.id, good);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, "not_found");
    assert.equal((await tick(alice.key, "00000000-0000-7000-8000-000000000000", good)).status, 404);
    for (const bad of [{}, { action_items: [] }, { action_items: [{ text: "x" }] }, { action_items: [{ text: "x", done: "yes" }] }, { action_items: [{ index: 0, done: true }] }, [1]]) {
      const res = await tick(alice.key, note.id, bad);
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(res.body.error.code, "validation_failed");
    }
    const unknown = await tick(alice.key, note.id, { action_items: [...good.action_items, { text: "Walk the dog", done: true }] });
    assert.equal(unknown.status, 409);
    assert.equal(unknown.body.error.code, "unknown_action_item");
    assert.deepEqual((await read(alice, note.id)).body.insights.action_items.map((a: Item) => a.done), [false, false], "all or nothing");
    const bare = await createTestNote(alice, "not yet written");
    assert.equal((await tick(alice.key, bare.id, good)).body.error.code, "unknown_action_item");
  });

  test("the export carries them; search finds the words of the title, summary and action items", async () => {
    const user = await createTestUser();
    const note = await noteWithText(user, PLAN);
    await tick(user.key, note.id, { action_items: [{ text: "Send the updated spreadsheet to Maria", done: true }] });
    const res = await exportRoute(new Request("http://localhost/api/v1/export", { headers: { authorization: `Bearer ${user.key}` } }), { params: Promise.resolve({}) });
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const name = Object.keys(files).find((f) => f.startsWith("notes/"))!;
    assert.match(name, /-quarterly-budget-/, "named by the insights title");
    const markdown = strFromU8(files[name]);
    assert.match(markdown, /^title: "Quarterly budget"$/m);
    assert.match(markdown, /^summary: "/m);
    assert.match(markdown, /## Summary\n\n.*quarterly budget/);
    assert.match(markdown, /## Action items\n\n- \[ \] Call Anna about the booth invoice before Friday\n- \[x\] Send the updated spreadsheet to Maria\n/);

    const search = async (q: string) =>
      (await call(listTranscriptions, { path: `/api/v1/transcriptions?q=${encodeURIComponent(q)}`, key: user.key })).body.transcriptions.map((t: { id: string }) => t.id);
    assert.deepEqual(await search("manageable"), [note.id], "a word of the summary");
    // Words only the insights hold (as a model writer may write them) are found too.
    const prisma = await db();
    await prisma.$executeRaw`UPDATE transcriptions SET insights = jsonb_set(jsonb_set(insights, '{title}', '"Zeppelin Plans"'), '{action_items,0,text}', '"Charter the airship"') WHERE id = ${note.id}`;
    assert.deepEqual(await search("zeppelin"), [note.id], "the title");
    assert.deepEqual(await search("airship"), [note.id], "an action item");
    assert.deepEqual(await search("submarine"), []);
  });
  test("a writer that writes the title and summary first: they show at once, still on their way, and the key points and to-dos follow (issue 67)", async () => {
    const user = await createTestUser();
    const note = await noteWithText(user, PLAN);
    const offline = note.insights!;
    // What writeNoteInsights does when a model writes insights: the offline ones, and the model's queued.
    await refreshInsights({ userId: user.id, id: note.id, writerQueued: true });
    assert.equal((await read(user, note.id)).body.insights_pending, true);
    let between: { insights: { title: string; summary: string; key_points: string[]; written_by: string }; insights_pending: boolean } | undefined;
    const stored = await refreshInsights({
      userId: user.id,
      id: note.id,
      writer: {
        name: "writer",
        async write(_input, hooks) {
          await hooks?.onHeadline?.({ title: "Quarterly budget review", summary: "The marketing budget is over because of the conference booth.", written_by: "local-model" });
          between = (await read(user, note.id)).body;
          return {
            title: "Quarterly budget review",
            summary: "The marketing budget is over because of the conference booth.",
            key_points: ["The booth invoice needs correcting."],
            action_items: ["Call Anna about the booth invoice"],
            written_by: "local-model",
          };
        },
      },
    });
    assert.ok(between, "the writer ran");
    assert.equal(between.insights.title, "Quarterly budget review", "the title shows before the rest is written");
    assert.equal(between.insights.summary, "The marketing budget is over because of the conference booth.");
    assert.deepEqual(between.insights.key_points, offline.key_points, "the key points stay until the writer's arrive");
    assert.equal(between.insights.written_by, "offline", "who wrote them is said once the whole is written");
    assert.equal(between.insights_pending, true, "still on their way: the page keeps following");
    assert.equal(stored.insights?.written_by, "local-model");
    const after = (await read(user, note.id)).body;
    assert.deepEqual(after.insights.key_points, ["The booth invoice needs correcting."]);
    assert.deepEqual(after.insights.action_items.map((item: Item) => item.text), ["Call Anna about the booth invoice"]);
    assert.equal(after.insights_pending, false);
  });
});
