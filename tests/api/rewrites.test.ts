import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { GET as listStyles, POST as createStyle } from "@/app/api/v1/rewrite-styles/route.ts";
import { DELETE as deleteStyle, PATCH as updateStyle } from "@/app/api/v1/rewrite-styles/[id]/route.ts";
import { GET as listRewrites, POST as createRewrite } from "@/app/api/v1/transcriptions/[id]/rewrites/route.ts";
import { DELETE as deleteRewrite, GET as getRewrite, PATCH as editRewrite } from "@/app/api/v1/rewrites/[id]/route.ts";
import { GET as getTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { db } from "@/lib/db/client.ts";
import { upsertEntry } from "@/lib/dictionary/upsert-entry.ts";
import { STYLES_MAX } from "@/lib/rewrites/schemas.ts";
import { resetWriterState } from "@/lib/writer/writer.ts";
import type { ChatReply, ChatRequest } from "../support/chat-server.ts";
import { standInWriter } from "../support/stand-in-writer.ts";
import { NAME_CHARS } from "@/lib/http/names.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { withEnv } from "../support/env.ts";
import { ordinaryWords } from "../support/ordinary-words.ts";
import { createTestNote, createTestUser, type TestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";

// Issue 31 item 3, "Rewrite as…": a note rewritten in a style and kept beside it. Without a
// writer, rules write the to-do list and the blog outline and the other styles say they need
// one (409 writer_required); with a writer (a stand-in chat server started here) every style is
// written by it, and a failing writer is named with its reason.

const database = setUpTestDatabase();

let reply: (req: ChatRequest, n: number) => ChatReply | Promise<ChatReply> = () => ({ content: "" });
const { chat, env: writerEnv } = await standInWriter((req, n) => reply(req, n));
const writer = () => writerEnv();

const PLAN =
  "Quick update on the quarterly budget review with the Kubernetes team. The marketing budget is twenty percent over because of the conference booth. " +
  "I need to call Anna about the booth invoice before Friday. Don't forget to send the updated spreadsheet to Maria. " +
  "Overall the quarterly budget looks manageable if the booth invoice gets corrected. The hiring plan stays as it is for now.";

const rewritesOf = (id: string) => ({ path: `/api/v1/transcriptions/${id}/rewrites`, params: { id } });
const rewriteAt = (id: string) => ({ path: `/api/v1/rewrites/${id}`, params: { id } });
const styleAt = (id: string) => ({ path: `/api/v1/rewrite-styles/${id}`, params: { id } });
const rewrite = (key: string | undefined, noteId: string, json: unknown) => call(createRewrite, { method: "POST", ...rewritesOf(noteId), key, json });
const styles = (key: string) => call(listStyles, { path: "/api/v1/rewrite-styles", key });
const newStyle = (key: string | undefined, json: unknown) => call(createStyle, { method: "POST", path: "/api/v1/rewrite-styles", key, json });

async function userWithNote(text = PLAN, language = "en"): Promise<{ user: TestUser; noteId: string }> {
  await database.ready;
  const user = await createTestUser();
  const note = await createTestNote(user, text);
  if (language !== "en") await (await db()).note.update({ where: { id: note.id }, data: { language } });
  return { user, noteId: note.id };
}

describe("rewrites without a writer", () => {
  test("the styles list says which styles can be written now", async () => {
    const { user } = await userWithNote();
    const res = await styles(user.key);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.writer_configured, false);
    const byId = Object.fromEntries(res.body.styles.map((s: { id: string }) => [s.id, s]));
    assert.deepEqual(Object.keys(byId), ["email", "todo_list", "meeting_notes", "blog_outline", "social_post"]);
    assert.equal(byId.todo_list.available, true);
    assert.equal(byId.todo_list.needs_writer, false);
    assert.equal(byId.blog_outline.available, true);
    for (const id of ["email", "meeting_notes", "social_post"]) {
      assert.equal(byId[id].available, false, id);
      assert.equal(byId[id].needs_writer, true, id);
    }
  });

  test("a to-do list from the note's action items, kept beside the note, which is unchanged", async () => {
    const { user, noteId } = await userWithNote();
    const res = await rewrite(user.key, noteId, { style: "todo_list" });
    assert.equal(res.status, 201, res.text);
    const made = res.body.rewrite;
    assert.equal(made.transcription_id, noteId);
    assert.equal(made.style, "todo_list");
    assert.equal(made.style_name, "To-do list");
    assert.equal(made.written_by, "offline");
    assert.equal(made.offline_reason, null, "no writer is set up: nothing failed");
    const lines = made.text.split("\n");
    assert.ok(lines.length >= 2, made.text);
    for (const line of lines) assert.match(line, /^- \[ \] \S/);
    assert.match(made.text, /Call Anna about the booth invoice/i);
    assert.match(made.text, /spreadsheet to Maria/);
    assert.ok(made.title.length > 0);

    const note = await call(getTranscription, { path: `/api/v1/transcriptions/${noteId}`, params: { id: noteId }, key: user.key });
    assert.equal(note.body.text, PLAN, "the note is never replaced");
    const listed = await call(listRewrites, { ...rewritesOf(noteId), key: user.key });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.rewrites.map((r: { id: string }) => r.id), [made.id]);
  });

  test("a blog outline from the title and key points", async () => {
    const { user, noteId } = await userWithNote();
    const res = await rewrite(user.key, noteId, { style: "blog_outline" });
    assert.equal(res.status, 201, res.text);
    const { text, title, written_by } = res.body.rewrite;
    assert.equal(written_by, "offline");
    assert.ok(text.startsWith(`${title}\n`), text);
    assert.match(text, /^1\. \S/m);
    assert.match(text, /budget/i);
  });

  test("the styles that need a writer answer 409 writer_required, and nothing is stored", async () => {
    const { user, noteId } = await userWithNote();
    for (const style of ["email", "meeting_notes", "social_post"]) {
      const res = await rewrite(user.key, noteId, { style });
      assert.equal(res.status, 409, `${style}: ${res.text}`);
      assert.equal(res.body.error.code, "writer_required");
      assert.match(res.body.error.message, /Settings → Writing/);
    }
    const own = await newStyle(user.key, { name: "Standup", instructions: "Three bullets: done, next, blocked." });
    const custom = await rewrite(user.key, noteId, { style: own.body.style.id });
    assert.equal(custom.status, 409);
    assert.equal(custom.body.error.code, "writer_required");
    const listed = await call(listRewrites, { ...rewritesOf(noteId), key: user.key });
    assert.deepEqual(listed.body.rewrites, []);
  });

  test("a note that commits to nothing has no to-do list: 422 nothing_to_rewrite", async () => {
    const { user, noteId } = await userWithNote("The weather was lovely today. The park was full of people walking their dogs.");
    const res = await rewrite(user.key, noteId, { style: "todo_list" });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.error.code, "nothing_to_rewrite");
  });
});

describe("rewrites by the writer", () => {
  test(
    "the prompt carries the style's instructions, the note's language and the dictionary's spellings; the answer is stored",
    withEnv(writer(), async () => {
      const { user, noteId } = await userWithNote();
      await upsertEntry({ userId: user.id, input: { misspelling: "cooper netties", correct_spelling: "Kubernetes" } });
      await upsertEntry({ userId: user.id, input: { misspelling: "post gress", correct_spelling: "Postgres" } });
      reply = () => ({ content: JSON.stringify({ title: "Booth invoice", text: "Hi Anna,\n\nCould we correct the booth invoice before Friday?\n\nThanks" }) });
      const listed = await styles(user.key);
      assert.equal(listed.body.writer_configured, true);
      assert.ok(listed.body.styles.every((s: { available: boolean }) => s.available));

      const res = await rewrite(user.key, noteId, { style: "email" });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.rewrite.written_by, "writer");
      assert.equal(res.body.rewrite.offline_reason, null);
      assert.equal(res.body.rewrite.title, "Booth invoice");
      assert.match(res.body.rewrite.text, /^Hi Anna,\n\nCould we correct/);

      assert.equal(chat.requests.length, 1);
      const [sent] = chat.requests;
      assert.equal(sent.authorization, "Bearer sk-writer");
      assert.match(sent.task, /as: Email/);
      assert.match(sent.task, /subject line/);
      assert.match(sent.system, /Write in English/);
      assert.match(sent.system, /exactly as spelled here: Kubernetes\./, "only the spellings the note uses");
      assert.doesNotMatch(sent.system, /Postgres/);
      assert.equal(sent.user, PLAN);
      assert.equal(sent.responseFormat?.type, "json_schema");
      assert.deepEqual(Object.keys((sent.responseFormat?.json_schema?.schema as { properties: object }).properties), ["title", "text"]);
    }),
  );

  test(
    "a title the writer wrote with bidirectional characters, a tab or a line break is kept without them, as a typed one must be (issue 66)",
    withEnv(writer(), async () => {
      const { user, noteId } = await userWithNote();
      reply = () => ({ content: JSON.stringify({ title: "\u202eBooth invoice\tnow\u200f\u2066\r\n", text: "Hi Anna,\n\nThe invoice." }) });
      const res = await rewrite(user.key, noteId, { style: "email" });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.rewrite.title, "Booth invoice now");
      assert.match(res.body.rewrite.title, NAME_CHARS, "what PATCH would take");
    }),
  );

  test(
    "a style of your own sends your instructions; a German note is written in German",
    withEnv(writer(), async () => {
      const { user, noteId } = await userWithNote("Morgen muss ich Anna wegen der Rechnung anrufen. Das Budget für die Messe ist zu hoch.", "de");
      const own = await newStyle(user.key, { name: "Wochenbericht", instructions: "Drei Stichpunkte: erledigt, als Nächstes, blockiert." });
      assert.equal(own.status, 201, own.text);
      reply = () => ({ content: JSON.stringify({ title: "Woche", text: "- erledigt: nichts" }) });
      const res = await rewrite(user.key, noteId, { style: own.body.style.id });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.rewrite.style, "custom");
      assert.equal(res.body.rewrite.style_id, own.body.style.id);
      assert.equal(res.body.rewrite.style_name, "Wochenbericht");
      assert.match(chat.requests[0].task, /The author's instructions for this style: Drei Stichpunkte: erledigt, als Nächstes, blockiert\./);
      assert.match(chat.requests[0].system, /Write in German/);

      // Deleting the style keeps the rewrite, with its name.
      const gone = await call(deleteStyle, { method: "DELETE", ...styleAt(own.body.style.id), key: user.key });
      assert.equal(gone.status, 200, gone.text);
      const kept = await call(getRewrite, { ...rewriteAt(res.body.rewrite.id), key: user.key });
      assert.equal(kept.body.rewrite.style_id, null);
      assert.equal(kept.body.rewrite.style_name, "Wochenbericht");
    }),
  );

  test(
    "a failing writer: the to-do list is written offline with the reason; an email answers 502 writer_failed with it",
    withEnv(writer(), async () => {
      const { user, noteId } = await userWithNote();
      reply = () => ({ status: 401, content: JSON.stringify({ error: { message: "bad key" } }) });
      const todo = await rewrite(user.key, noteId, { style: "todo_list" });
      assert.equal(todo.status, 201, todo.text);
      assert.equal(todo.body.rewrite.written_by, "offline");
      assert.match(todo.body.rewrite.offline_reason, /refused its key/);
      assert.match(todo.body.rewrite.text, /^- \[ \] /);

      resetWriterState();
      const email = await rewrite(user.key, noteId, { style: "email" });
      assert.equal(email.status, 502, email.text);
      assert.equal(email.body.error.code, "writer_failed");
      assert.match(email.body.error.message, /refused its key/);
    }),
  );
});

// Issue 69: every model output passes one check (lib/writer/check-output.ts). A local model once
// saved random bytes as an email's title and body, "written by the model on this machine".
describe("a rewrite the writer wrote of nonsense is not used (issue 69)", () => {
  const nonsense = ordinaryWords(300, 7);
  const todo = JSON.stringify({ title: "Booth invoice", text: "- [ ] Call Anna about the booth invoice\n- [ ] Send the spreadsheet to Maria" });
  const offlineBecause = async (noteId: string, key: string, content: string, why: RegExp) => {
    reply = () => ({ content });
    const res = await rewrite(key, noteId, { style: "todo_list" });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.rewrite.written_by, "offline");
    assert.match(res.body.rewrite.offline_reason, why);
    assert.doesNotMatch(res.body.rewrite.offline_reason, /\d|_/, "plain words: no counts or codes");
    assert.match(res.body.rewrite.text, /^- \[ \] Call Anna about the booth invoice/m, "the rules' to-do list from the note");
    const shown = `${res.body.rewrite.title} ${res.body.rewrite.text}`;
    for (const word of content.match(/\b[a-z]{6,}\b/g)!.filter((w) => !PLAN.toLowerCase().includes(w))) assert.ok(!shown.includes(word), `none of the nonsense: ${word}`);
  };

  test(
    "a to-do list of nonsense, or one with a title of nonsense, is written offline and says why",
    withEnv(writer(), async () => {
      const { user, noteId } = await userWithNote();
      reply = () => ({ content: todo });
      const good = await rewrite(user.key, noteId, { style: "todo_list" });
      assert.equal(good.body.rewrite.written_by, "writer", good.body.rewrite.offline_reason ?? "");

      await offlineBecause(noteId, user.key, JSON.stringify({ title: "Booth invoice", text: nonsense }), /^the writer's rewrite was not in your note's words$/);
      await offlineBecause(noteId, user.key, JSON.stringify({ title: ordinaryWords(40, 9), text: "- [ ] Call Anna about the booth invoice" }), /^the writer's title was not in your note's words$/);
      await offlineBecause(noteId, user.key, JSON.stringify({ title: "Booth", text: "- [ ] Call Oleksandr about the booth invoice" }), /^the writer's rewrite said “Oleksandr”, which the note does not$/);
    }),
  );

  test(
    "an email of random bytes is refused (502 writer_failed with the reason), and nothing is stored",
    withEnv(writer(), async () => {
      const { user, noteId } = await userWithNote();
      const bytes = Array.from({ length: 200 }, (_, i) => String.fromCharCode((i * 73 + 11) % 256)).join("");
      reply = () => ({ content: JSON.stringify({ title: bytes.slice(0, 30), text: bytes }) });
      const res = await rewrite(user.key, noteId, { style: "email" });
      assert.equal(res.status, 502, res.text);
      assert.equal(res.body.error.code, "writer_failed");
      assert.match(res.body.error.message, /the writer's rewrite had characters that are not text/);
      const listed = await call(listRewrites, { ...rewritesOf(noteId), key: user.key });
      assert.deepEqual(listed.body.rewrites, []);
    }),
  );
});

describe("rewrite styles of your own", () => {
  test("create, list, rename, change instructions, delete; built-ins are read-only", async () => {
    const { user } = await userWithNote();
    const made = await newStyle(user.key, { name: "  Standup  ", instructions: "Three bullets: done, next, blocked." });
    assert.equal(made.status, 201, made.text);
    const style = made.body.style;
    assert.equal(style.name, "Standup");
    assert.equal(style.built_in, false);
    assert.equal(style.needs_writer, true);
    assert.equal(style.available, false);
    assert.equal((await styles(user.key)).body.styles.at(-1).id, style.id);

    const renamed = await call(updateStyle, { method: "PATCH", ...styleAt(style.id), key: user.key, json: { name: "Daily standup", instructions: "Two bullets." } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.style.name, "Daily standup");
    assert.equal(renamed.body.style.instructions, "Two bullets.");

    const builtIn = await call(updateStyle, { method: "PATCH", ...styleAt("email"), key: user.key, json: { name: "Mail" } });
    assert.equal(builtIn.status, 409);
    assert.equal(builtIn.body.error.code, "rewrite_style_read_only");
    assert.equal((await call(deleteStyle, { method: "DELETE", ...styleAt("todo_list"), key: user.key })).body.error.code, "rewrite_style_read_only");

    const deleted = await call(deleteStyle, { method: "DELETE", ...styleAt(style.id), key: user.key });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.deleted.id, style.id);
    assert.equal((await call(deleteStyle, { method: "DELETE", ...styleAt(style.id), key: user.key })).status, 404);
  });

  test(`bad input is 400 validation_failed; more than ${STYLES_MAX} styles is 409 rewrite_style_limit_reached`, async () => {
    const { user } = await userWithNote();
    for (const json of [{}, { name: "", instructions: "x" }, { name: "A", instructions: "   " }, { name: "A\nB", instructions: "x" }, { name: "A", instructions: "x", extra: 1 }, { name: "A", instructions: "x".repeat(2001) }]) {
      const res = await newStyle(user.key, json);
      assert.equal(res.status, 400, JSON.stringify(json));
      assert.equal(res.body.error.code, "validation_failed");
    }
    const made = (await newStyle(user.key, { name: "S", instructions: "x" })).body.style;
    assert.equal((await call(updateStyle, { method: "PATCH", ...styleAt(made.id), key: user.key, json: {} })).body.error.code, "validation_failed");

    for (let i = 1; i < STYLES_MAX; i++) assert.equal((await newStyle(user.key, { name: `S${i}`, instructions: "x" })).status, 201);
    const over = await newStyle(user.key, { name: "One more", instructions: "x" });
    assert.equal(over.status, 409, over.text);
    assert.equal(over.body.error.code, "rewrite_style_limit_reached");
  });
});

describe("editing and deleting a rewrite", () => {
  test("PATCH replaces text and title and says when; DELETE removes it and keeps the note", async () => {
    const { user, noteId } = await userWithNote();
    const made = (await rewrite(user.key, noteId, { style: "todo_list" })).body.rewrite;
    assert.equal(made.edited_at, null);
    const edited = await call(editRewrite, { method: "PATCH", ...rewriteAt(made.id), key: user.key, json: { text: "- [x] Call Anna\r\n- [ ] Send the sheet", title: "This week" } });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.rewrite.text, "- [x] Call Anna\n- [ ] Send the sheet");
    assert.equal(edited.body.rewrite.title, "This week");
    assert.ok(edited.body.rewrite.edited_at);
    assert.equal((await call(getRewrite, { ...rewriteAt(made.id), key: user.key })).body.rewrite.text, "- [x] Call Anna\n- [ ] Send the sheet");

    for (const json of [{}, { text: "  " }, { text: 5 }, { title: "a\nb" }, { text: "ok", other: true }]) {
      const bad = await call(editRewrite, { method: "PATCH", ...rewriteAt(made.id), key: user.key, json });
      assert.equal(bad.status, 400, JSON.stringify(json));
      assert.equal(bad.body.error.code, "validation_failed");
    }

    const deleted = await call(deleteRewrite, { method: "DELETE", ...rewriteAt(made.id), key: user.key });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.deleted.id, made.id);
    assert.equal((await call(getRewrite, { ...rewriteAt(made.id), key: user.key })).status, 404);
    assert.equal((await call(getTranscription, { path: `/api/v1/transcriptions/${noteId}`, params: { id: noteId }, key: user.key })).status, 200);
  });

  test("a deleted note takes its rewrites with it", async () => {
    const { user, noteId } = await userWithNote();
    const made = (await rewrite(user.key, noteId, { style: "blog_outline" })).body.rewrite;
    await (await db()).note.delete({ where: { id: noteId } });
    assert.equal((await call(getRewrite, { ...rewriteAt(made.id), key: user.key })).status, 404);
  });
});

describe("owner only, keys and bad input", () => {
  test("another user's note, rewrite or style is 404; no key is 401; bad input is 400", async () => {
    const { user, noteId } = await userWithNote();
    const other = await createTestUser();
    const made = (await rewrite(user.key, noteId, { style: "todo_list" })).body.rewrite;
    const style = (await newStyle(user.key, { name: "Mine", instructions: "x" })).body.style;

    assert.equal((await rewrite(other.key, noteId, { style: "todo_list" })).status, 404);
    assert.equal((await call(listRewrites, { ...rewritesOf(noteId), key: other.key })).status, 404);
    assert.equal((await call(getRewrite, { ...rewriteAt(made.id), key: other.key })).status, 404);
    assert.equal((await call(editRewrite, { method: "PATCH", ...rewriteAt(made.id), key: other.key, json: { text: "mine" } })).status, 404);
    assert.equal((await call(deleteRewrite, { method: "DELETE", ...rewriteAt(made.id), key: other.key })).status, 404);
    assert.equal((await call(updateStyle, { method: "PATCH", ...styleAt(style.id), key: other.key, json: { name: "Theirs" } })).status, 404);
    assert.equal((await call(deleteStyle, { method: "DELETE", ...styleAt(style.id), key: other.key })).status, 404);
    const otherNote = await createTestNote(other, PLAN);
    const foreignStyle = await rewrite(other.key, otherNote.id, { style: style.id });
    assert.equal(foreignStyle.status, 404, "another user's style is unknown");
    assert.equal(foreignStyle.body.error.code, "not_found");
    assert.equal((await call(getRewrite, { ...rewriteAt(made.id), key: user.key })).body.rewrite.text, made.text, "untouched");
    assert.ok((await styles(user.key)).body.styles.some((s: { id: string }) => s.id === style.id), "untouched");

    assert.equal((await rewrite(undefined, noteId, { style: "todo_list" })).status, 401);
    assert.equal((await call(listStyles, { path: "/api/v1/rewrite-styles" })).status, 401);
    assert.equal((await call(getRewrite, rewriteAt(made.id))).status, 401);

    for (const json of [{}, { style: "" }, { style: 3 }, { style: "todo_list", extra: true }]) {
      const bad = await rewrite(user.key, noteId, json);
      assert.equal(bad.status, 400, JSON.stringify(json));
      assert.equal(bad.body.error.code, "validation_failed");
    }
    assert.equal((await rewrite(user.key, noteId, { style: "poem" })).status, 404, "an unknown style");
  });

  test("a key without the transcribe scope is 403", async () => {
    await database.ready;
    const user = await createTestUser({ scopes: ["content:read"] });
    const res = await styles(user.key);
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, "insufficient_scope");
  });
});
