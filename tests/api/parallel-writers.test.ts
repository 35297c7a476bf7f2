import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { GET as getTranscription, PATCH as editTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { PATCH as tickRoute } from "@/app/api/v1/transcriptions/[id]/insights/route.ts";
import { POST as createRewrite } from "@/app/api/v1/transcriptions/[id]/rewrites/route.ts";
import { DELETE as deleteRewrite, PATCH as editRewrite } from "@/app/api/v1/rewrites/[id]/route.ts";
import { POST as createStyle } from "@/app/api/v1/rewrite-styles/route.ts";
import { DELETE as deleteStyle, PATCH as updateStyle } from "@/app/api/v1/rewrite-styles/[id]/route.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestNote, createTestUser, type TestUser } from "../support/factories.ts";
import { call, type CallResult } from "../support/http.ts";

// Issue 44 item 4: writes at the same moment on one note. Ticks of different items, tags, the pin
// and edits of the text, 50 at once: none answers 5xx (an edit from a stale copy is the documented
// 409 edit_conflict), and every change that was answered as done is there afterwards. Then what
// sits beside a note (a rewrite, a rewrite style) edited and deleted at once: one delete wins, the
// others find nothing (404), and no edit answers 5xx.

const database = setUpTestDatabase();
before(() => database.ready);

const ITEMS = 20;
const TICKS = 20;
const TAGGERS = 12;
const PINNERS = 10;
const EDITORS = 8;
const people = Array.from({ length: ITEMS }, (_, i) => `person${String.fromCharCode(97 + i)}`);
const TEXT = people.map((p) => `I need to call ${p} about the quarterly budget.`).join(" ");

const at = (id: string, suffix = "") => ({ path: `/api/v1/transcriptions/${id}${suffix}`, params: { id } });
const read = (user: TestUser, id: string) => call(getTranscription, { ...at(id), key: user.key });
const patch = (user: TestUser, id: string, json: unknown) => call(editTranscription, { method: "PATCH", ...at(id), key: user.key, json });
const tick = (user: TestUser, id: string, json: unknown) => call(tickRoute, { method: "PATCH", ...at(id, "/insights"), key: user.key, json });

type Writer = { kind: "tick" | "tags" | "pin" | "edit"; sent: Record<string, any>; run: () => Promise<CallResult> };

describe("parallel writers on one note", () => {
  test(`${TICKS} ticks, ${TAGGERS} tag sets, ${PINNERS} pins and ${EDITORS} text edits at once: no 5xx, nothing acknowledged lost`, async () => {
    const user = await createTestUser();
    const created = await createTestNote(user, "placeholder words");
    const start = await patch(user, created.id, { text: TEXT });
    assert.equal(start.status, 200, start.text);
    const items: string[] = start.body.insights.action_items.map((a: { text: string }) => a.text);
    assert.equal(items.length, ITEMS, JSON.stringify(items));

    const writers: Writer[] = [];
    for (let i = 0; i < TICKS; i++) {
      const sent = { action_items: [{ text: items[i % ITEMS], done: true }] };
      writers.push({ kind: "tick", sent, run: () => tick(user, created.id, sent) });
    }
    for (let i = 0; i < TAGGERS; i++) {
      const sent = { tags: ["shared", `tag-${i}`] };
      writers.push({ kind: "tags", sent, run: () => patch(user, created.id, sent) });
    }
    for (let i = 0; i < PINNERS; i++) {
      const sent = { pinned: true };
      writers.push({ kind: "pin", sent, run: () => patch(user, created.id, sent) });
    }
    for (let i = 0; i < EDITORS; i++) {
      // Each edit keeps the action items' sentences, so a tick at the same time still finds its item.
      const sent = { text: `${TEXT} Version ${i}.`, updated_at: start.body.updated_at };
      writers.push({ kind: "edit", sent, run: () => patch(user, created.id, sent) });
    }
    // Interleaved, so every kind races every other.
    const order = writers.map((_, i) => writers[(i * 37) % writers.length]); // 37 and 50 are coprime: each once
    const answers = await Promise.all(order.map(async (w) => ({ ...w, res: await w.run() })));

    const failed = answers.filter((a) => a.res.status >= 500);
    assert.deepEqual(failed.map((a) => `${a.kind} ${a.res.status} ${a.res.text}`), [], "no writer answered 5xx");
    for (const a of answers.filter((a) => a.kind !== "edit")) assert.equal(a.res.status, 200, `${a.kind}: ${a.res.text}`);
    const edits = answers.filter((a) => a.kind === "edit");
    const accepted = edits.filter((a) => a.res.status === 200);
    for (const a of edits.filter((a) => a.res.status !== 200)) {
      assert.equal(a.res.status, 409, a.res.text);
      assert.equal(a.res.body.error.code, "edit_conflict");
    }
    // All the edits were made on the same copy: one of them wins, the others learn of it.
    assert.equal(accepted.length, 1, edits.map((a) => a.res.status).join(","));

    const after = await read(user, created.id);
    assert.equal(after.status, 200, after.text);
    const note = after.body;
    assert.equal(note.text, accepted[0].sent.text, "the accepted edit's text");
    assert.equal(note.updated_at, accepted[0].res.body.updated_at, "only the edit changed updated_at");
    assert.deepEqual(
      note.insights.action_items,
      items.map((text) => ({ text, done: true })),
      "every tick is kept, also across the edit's rewrite of the insights",
    );
    assert.equal(note.pinned, true);
    const tagSets = answers.filter((a) => a.kind === "tags").map((a) => JSON.stringify(a.sent.tags));
    assert.ok(tagSets.includes(JSON.stringify(note.tags)), `tags ${JSON.stringify(note.tags)} are one of the sets sent`);
  });
});

describe("parallel writers on what sits beside a note", () => {
  /** Ten edits and ten deletes at once: one delete answers 200, the others 404; no edit answers 5xx. */
  async function editAndDeleteAtOnce(what: string, edit: (i: number) => Promise<CallResult>, remove: () => Promise<CallResult>) {
    const runs = [...Array.from({ length: 10 }, (_, i) => ({ kind: "edit", run: () => edit(i) })), ...Array.from({ length: 10 }, () => ({ kind: "delete", run: remove }))];
    const interleaved = runs.map((_, i) => runs[(i * 7) % runs.length]); // 7 and 20 are coprime: each once
    const answers = await Promise.all(interleaved.map(async ({ kind, run }) => ({ kind, res: await run() })));
    assert.deepEqual(answers.filter((a) => a.res.status >= 500).map((a) => `${what} ${a.kind} ${a.res.status} ${a.res.text}`), []);
    const deletes = answers.filter((a) => a.kind === "delete").map((a) => a.res.status).sort();
    assert.deepEqual(deletes, [200, ...Array(9).fill(404)], `${what}: one delete wins`);
    for (const a of answers.filter((a) => a.kind === "edit")) assert.ok([200, 404].includes(a.res.status), `${what} edit: ${a.res.text}`);
  }

  test("a rewrite edited and deleted at once, and a rewrite style: no 5xx, one delete wins", async () => {
    const user = await createTestUser();
    const created = await createTestNote(user, TEXT);
    const made = await call(createRewrite, { method: "POST", path: `/api/v1/transcriptions/${created.id}/rewrites`, params: { id: created.id }, key: user.key, json: { style: "todo_list" } });
    assert.equal(made.status, 201, made.text);
    const rewriteId = made.body.rewrite.id as string;
    const rewriteAt = { path: `/api/v1/rewrites/${rewriteId}`, params: { id: rewriteId }, key: user.key };
    await editAndDeleteAtOnce(
      "rewrite",
      (i) => call(editRewrite, { method: "PATCH", ...rewriteAt, json: { title: `Edit ${i}` } }),
      () => call(deleteRewrite, { method: "DELETE", ...rewriteAt }),
    );

    const style = await call(createStyle, { method: "POST", path: "/api/v1/rewrite-styles", key: user.key, json: { name: "Standup", instructions: "Three bullets." } });
    assert.equal(style.status, 201, style.text);
    const styleAt = { path: `/api/v1/rewrite-styles/${style.body.style.id}`, params: { id: style.body.style.id }, key: user.key };
    await editAndDeleteAtOnce(
      "style",
      (i) => call(updateStyle, { method: "PATCH", ...styleAt, json: { name: `Standup ${i}` } }),
      () => call(deleteStyle, { method: "DELETE", ...styleAt }),
    );
  });
});
