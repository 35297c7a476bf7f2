import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/client";
import { connectMcp } from "@/tests/support/mcp-client.ts";
import { POST as mcp } from "@/app/mcp/route.ts";
import { GET as resourceMetadata } from "@/app/.well-known/oauth-protected-resource/route.ts";
import { createChannel, setUpContentTests, waitForGeneration } from "@/tests/api/content-support.ts";
import { createTestNote, createTestUser, type TestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { refreshInsights } from "@/lib/insights/refresh-insights.ts";
import { readFile } from "node:fs/promises";
import { JFK_WAV } from "@/tests/support/audio.ts";

// The MCP server at /mcp, driven by the official SDK's client over Streamable HTTP (its requests
// handed to the route handler as Next would): the tools, each key's scopes, owner only, and the
// refusals an assistant meets (401 with the resource metadata, another site's Origin).

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
setUpContentTests();

const NOTE = "We ship the new editor on Friday. I need to send the release notes to Maria. The editor saves as you type.";

const connect = connectMcp;

type ToolAnswer = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text: string }[] };
const callTool = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
const errorOf = (answer: ToolAnswer) => (JSON.parse(answer.content[0].text) as { error: { code: string } }).error.code;

async function userWithNote(): Promise<{ user: TestUser; noteId: string }> {
  const user = await createTestUser();
  const note = await createTestNote(user, NOTE);
  await refreshInsights({ userId: user.id, id: note.id });
  return { user, noteId: note.id };
}

describe("the MCP server", () => {
  test("lists its tools with honest hints; none approves, shares or deletes", async () => {
    const { user } = await userWithNote();
    const client = await connect(user.key);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.deepEqual([...byName.keys()].sort(), ["add_dictionary_entry", "ask_notes", "get_note", "get_posts", "list_notes", "list_tags", "make_posts", "search_notes", "tick_action_item", "transcribe_audio", "update_note_text"]);
    for (const name of ["search_notes", "get_note", "list_notes", "list_tags", "get_posts", "ask_notes"]) assert.equal(byName.get(name)?.annotations?.readOnlyHint, true, name);
    for (const name of ["update_note_text", "tick_action_item", "add_dictionary_entry", "make_posts", "transcribe_audio"]) {
      assert.equal(byName.get(name)?.annotations?.readOnlyHint, false, name);
      assert.equal(byName.get(name)?.annotations?.destructiveHint, false, name);
    }
    assert.ok(![...byName.keys()].some((name) => /approve|share|publish|delete|confirm/.test(name)));
    assert.equal(byName.get("get_note")?.inputSchema.type, "object");
    assert.deepEqual(byName.get("get_note")?.inputSchema.required, ["id"]);
    await client.close();
  });

  test("search, read, tick and edit a note; teach a spelling", async () => {
    const { user, noteId } = await userWithNote();
    const client = await connect(user.key);
    const found = await callTool(client, "search_notes", { query: "editor" });
    assert.equal(found.isError, undefined, found.content[0].text);
    assert.deepEqual((found.structuredContent!.notes as { id: string }[]).map((n) => n.id), [noteId]);
    assert.equal(((await callTool(client, "search_notes", { query: "kangaroo" })).structuredContent!.notes as unknown[]).length, 0);

    const note = (await callTool(client, "get_note", { id: noteId })).structuredContent as { text: string; updated_at: string; insights: { action_items: { text: string; done: boolean }[] } };
    assert.equal(note.text, NOTE);
    const item = note.insights.action_items[0];
    assert.ok(item, "the note has a to-do");
    const ticked = await callTool(client, "tick_action_item", { id: noteId, action_items: [{ text: item.text, done: true }] });
    assert.deepEqual((ticked.structuredContent!.action_items as { done: boolean }[])[0].done, true);

    const fresh = (await callTool(client, "get_note", { id: noteId })).structuredContent as { updated_at: string };
    const edited = await callTool(client, "update_note_text", { id: noteId, text: NOTE.replace("Friday", "Monday"), updated_at: fresh.updated_at });
    assert.equal(edited.isError, undefined, edited.content[0].text);
    const stale = await callTool(client, "update_note_text", { id: noteId, text: "Again.", updated_at: fresh.updated_at });
    assert.equal(stale.isError, true);
    assert.equal(errorOf(stale), "edit_conflict", "a conflict is an error the model can read");

    const taught = await callTool(client, "add_dictionary_entry", { misspelling: "voice draft", correct_spelling: "Voicedraft" });
    assert.equal(taught.structuredContent!.created, true);
    assert.deepEqual(((await callTool(client, "list_tags")).structuredContent!.tags as unknown[]), []);
    await client.close();
  });

  test("make posts from a note and read them; they wait for the person's approval", async () => {
    const { user, noteId } = await userWithNote();
    await createChannel(user.key, "linkedin");
    const client = await connect(user.key);
    const made = await callTool(client, "make_posts", { note_id: noteId });
    assert.equal(made.isError, undefined, made.content[0].text);
    const masterId = made.structuredContent!.master_id as string;
    await waitForGeneration(user.key, masterId);
    const posts = (await callTool(client, "get_posts", { master_id: masterId })).structuredContent!.posts as { text: string; approved: boolean; writing: boolean }[];
    assert.equal(posts.length, 1);
    assert.equal(posts[0].writing, false);
    assert.equal(posts[0].approved, false);
    assert.match(posts[0].text, /editor/i);
    await client.close();
  });

  test("owner only; a key's scopes hold per tool", async () => {
    const { noteId } = await userWithNote();
    const other = await createTestUser();
    const client = await connect(other.key);
    const foreign = await callTool(client, "get_note", { id: noteId });
    assert.equal(foreign.isError, true);
    assert.equal(errorOf(foreign), "not_found", "another person's note is not found, as a missing one");
    assert.equal(errorOf(await callTool(client, "make_posts", { note_id: noteId })), "channel_inactive");
    await client.close();

    const readOnly = await createTestUser({ scopes: ["transcribe", "content:read"] });
    const limited = await connect(readOnly.key);
    assert.equal(errorOf(await callTool(limited, "add_dictionary_entry", { misspelling: "a b", correct_spelling: "AB" })), "insufficient_scope");
    assert.equal(errorOf(await callTool(limited, "make_posts", { note_id: noteId })), "insufficient_scope");
    await limited.close();
  });

  test("resources: a note as Markdown, its transcript as WebVTT, its posts; prompts: the week's open to-dos, a post from a note", async () => {
    const { user, noteId } = await userWithNote();
    const client = await connect(user.key);
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort();
    assert.deepEqual(templates, ["note://{id}", "note://{id}/transcript.vtt", "posts://{master_id}"]);
    const markdown = (await client.readResource({ uri: `note://${noteId}` })).contents[0] as { mimeType: string; text: string };
    assert.equal(markdown.mimeType, "text/markdown");
    assert.ok(markdown.text.startsWith("---\n") && markdown.text.includes(`id: "${noteId}"`), markdown.text.slice(0, 200));
    assert.match(markdown.text, /## Action items\n\n- \[ \] /);
    const vtt = (await client.readResource({ uri: `note://${noteId}/transcript.vtt` })).contents[0] as { text: string };
    assert.match(vtt.text, /^WEBVTT/);
    await assert.rejects(client.readResource({ uri: "note://00000000-0000-7000-8000-000000000000" }), /not found/i);

    const prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
    assert.deepEqual(prompts, ["draft_post", "weekly_review"]);
    const review = await client.getPrompt({ name: "weekly_review" });
    assert.match((review.messages[0].content as { text: string }).text, /- \[ \] .*Maria/);
    const draft = await client.getPrompt({ name: "draft_post", arguments: { note_id: noteId, platform: "linkedin" } });
    assert.match((draft.messages[0].content as { text: string }).text, /linkedin post[\s\S]*editor/);

    const other = await connect((await createTestUser()).key);
    await assert.rejects(other.readResource({ uri: `note://${noteId}` }), /not found/i, "another person's note reads as missing");
    await other.close();
    await client.close();
  });

  test("transcribe_audio makes a note of base64 audio as /transcribe does; bytes that are not audio are refused", async () => {
    const user = await createTestUser();
    const client = await connect(user.key);
    const made = await callTool(client, "transcribe_audio", { audio_base64: (await readFile(JFK_WAV)).toString("base64"), file_name: "jfk.wav" });
    assert.equal(made.isError, undefined, made.content[0].text);
    assert.match(made.structuredContent!.text as string, /country/i);
    const listed = (await callTool(client, "list_notes")).structuredContent!.notes as { id: string }[];
    assert.deepEqual(listed.map((n) => n.id), [made.structuredContent!.id]);
    const junk = await callTool(client, "transcribe_audio", { audio_base64: Buffer.from("not audio at all, just text").toString("base64") });
    assert.equal(junk.isError, true);
    assert.equal(errorOf(junk), "unsupported_audio");
    await client.close();
  });

  test("a missing or bad key: 401 with the resource metadata's address; another site's page or name: 403", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
    const headers = { accept: "application/json, text/event-stream" };
    for (const key of [undefined, "vd_not-a-real-key"]) {
      const res = await call(mcp, { method: "POST", path: "/mcp", key, json: init, headers });
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, "unauthorized");
      assert.equal(res.headers.get("www-authenticate"), 'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource"');
    }
    const user = await createTestUser();
    const rebinding = await call(mcp, { method: "POST", path: "/mcp", key: user.key, json: init, headers: { ...headers, origin: "http://evil.example" } });
    assert.equal(rebinding.status, 403);
    assert.equal(rebinding.body.error.code, "cross_site_request");
    // DNS rebinding: another site's name pointed at this server, its Origin matching that name
    const renamed = await call(mcp, { method: "POST", path: "/mcp", key: user.key, json: init, headers: { ...headers, host: "evil.example", origin: "http://evil.example" } });
    assert.equal(renamed.status, 403);
    assert.equal(renamed.body.error.code, "unknown_host");
    const metadata = await call(resourceMetadata, { path: "/.well-known/oauth-protected-resource" });
    assert.equal(metadata.status, 200);
    assert.equal(metadata.body.resource, "http://localhost/mcp");
    assert.deepEqual(metadata.body.bearer_methods_supported, ["header"]);
  });
});
