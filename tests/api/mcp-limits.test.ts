import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DELETE, GET, OPTIONS, PATCH, POST as mcp, PUT } from "@/app/mcp/route.ts";
import type { RouteHandler } from "@/lib/api/with-request.ts";
import { MCP_AUDIO_MAX_BYTES, MCP_BODY_MAX_BYTES } from "@/lib/mcp/transcribe-tool.ts";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestNote, createTestUser, type TestUser } from "@/tests/support/factories.ts";
import { call, type CallResult } from "@/tests/support/http.ts";

// Issue 60, item 5, on /mcp: a tool's, resource's or prompt's error is the API's (its code and
// message, with the request id), never an internal one (draft_post with a NUL id quoted Prisma and
// PostgreSQL's 22021); one body limit, the one transcribe_audio's recording fits in, answered as a
// 413 that says it; and 405 with Allow for the methods a stateless server has nothing to do with
// (GET held an event stream open for ever: 500 of them on one key took 88 MB).

setUpTestDatabase();

const INTERNALS = /prisma|invocation|22021|findFirst|postgres|pglite|stack|at \//i;

type RpcAnswer = { status: number; requestId: string | null; text: string; body: any };

async function rpc(key: string, method: string, params: Record<string, unknown>): Promise<RpcAnswer> {
  const res = await call(mcp, {
    method: "POST",
    path: "/mcp",
    key,
    headers: { accept: "application/json, text/event-stream" },
    json: { jsonrpc: "2.0", id: 7, method, params },
  });
  return { status: res.status, requestId: res.headers.get("x-request-id"), text: res.text, body: res.body };
}

/** A JSON-RPC error answer (resources, prompts) carrying the API's error. */
function assertProtocolError(answer: RpcAnswer, jsonRpcCode: number, apiCode: string) {
  assert.equal(answer.status, 200, answer.text);
  assert.doesNotMatch(answer.text, INTERNALS);
  const { error } = answer.body;
  assert.equal(error.code, jsonRpcCode, answer.text);
  assert.equal(error.data.error.code, apiCode);
  assert.equal(error.message, error.data.error.message, "the API's message, as it is");
  assert.equal(error.data.error.request_id, answer.requestId);
}

/** A tool's refusal (a result the model reads) carrying the API's error. */
function assertToolRefusal(answer: RpcAnswer, apiCode: string) {
  assert.equal(answer.status, 200, answer.text);
  assert.doesNotMatch(answer.text, INTERNALS);
  assert.equal(answer.body.result.isError, true, answer.text);
  const text = answer.body.result.content[0].text;
  assert.match(text, /^\{/, text);
  const { error } = JSON.parse(text);
  assert.equal(error.code, apiCode, answer.text);
  assert.ok(error.message);
  assert.equal(error.request_id, answer.requestId);
}

describe("MCP errors are the API's", () => {
  test("prompts/get draft_post {note_id: NUL}: -32602 with validation_failed, the API's message and the request id, no Prisma", async () => {
    const user = await createTestUser();
    const answer = await rpc(user.key, "prompts/get", { name: "draft_post", arguments: { note_id: "\u0000", platform: "x" } });
    assertProtocolError(answer, -32602, "validation_failed");
    assert.equal(answer.body.error.message, "The argument note_id must be 1–64 letters, digits, _ or -.");
    assert.deepEqual(answer.body.error.data.error.details, [{ path: "note_id", message: "must be 1–64 letters, digits, _ or -" }]);
    // As the REST API answers the same id in a path.
    for (const id of ["'; --", "a".repeat(65), "é", ""]) {
      assertProtocolError(await rpc(user.key, "prompts/get", { name: "draft_post", arguments: { note_id: id, platform: "x" } }), -32602, "validation_failed");
    }
  });

  // -32602, not 2025's -32002: 2026-07-28 replaced it, and the SDK answers it on every revision.
  test("another person's note, or none: -32602 not_found, for prompts and resources alike", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const theirs = await createTestNote(other, "Someone else's plan.");
    assertProtocolError(await rpc(user.key, "prompts/get", { name: "draft_post", arguments: { note_id: theirs.id, platform: "x" } }), -32602, "not_found");
    for (const uri of [`note://${theirs.id}`, `note://${theirs.id}/transcript.vtt`]) {
      assertProtocolError(await rpc(user.key, "resources/read", { uri }), -32602, "not_found");
    }
    const mine = await createTestNote(user, "My own plan.");
    const read = await rpc(user.key, "resources/read", { uri: `note://${mine.id}` });
    assert.match(read.body.result.contents[0].text, /My own plan\./);
  });

  test("resources/read with an id the API would not take: validation_failed", async () => {
    const user = await createTestUser();
    for (const uri of ["note://a%00b", "note://a'b", "posts://%00"]) {
      assertProtocolError(await rpc(user.key, "resources/read", { uri }), -32602, "validation_failed");
    }
  });

  test("tools: a NUL in any argument is validation_failed; another's note is not_found; each with the request id", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const theirs = await createTestNote(other, "Someone else's plan.");
    for (const [name, args] of [
      ["search_notes", { query: "\u0000" }],
      ["list_notes", { cursor: "\u0000" }],
      ["get_note", { id: "\u0000" }],
      ["get_note", { id: "'; --" }],
      ["update_note_text", { id: "\u0000", text: "New.", updated_at: "2026-01-01T00:00:00.000Z" }],
      ["tick_action_item", { id: "\u0000", action_items: [{ text: "x", done: true }] }],
      ["make_posts", { note_id: "\u0000" }],
      ["get_posts", { master_id: "\u0000" }],
    ] as const) {
      const answer = await rpc(user.key, "tools/call", { name, arguments: args });
      assertToolRefusal(answer, "validation_failed");
    }
    for (const [name, args] of [
      ["get_note", { id: theirs.id }],
      ["get_posts", { master_id: theirs.id }],
      ["tick_action_item", { id: theirs.id, action_items: [{ text: "x", done: true }] }],
    ] as const) {
      assertToolRefusal(await rpc(user.key, "tools/call", { name, arguments: args }), "not_found");
    }
    // What the SDK checks against a tool's schema before the tool runs is its own answer (InvalidParams), which quotes the API's schema, nothing internal.
    const checked = await rpc(user.key, "tools/call", { name: "add_dictionary_entry", arguments: { misspelling: "a\u0000", correct_spelling: "b" } });
    assert.equal(checked.body.result.isError, true);
    assert.doesNotMatch(checked.text, INTERNALS);
  });
});

describe("the body limit is transcribe_audio's", () => {
  test("one constant: the body carries the largest recording in base64 with its envelope", () => {
    assert.equal(MCP_AUDIO_MAX_BYTES, 25 * 1024 * 1024);
    assert.ok(MCP_BODY_MAX_BYTES >= Math.ceil(MCP_AUDIO_MAX_BYTES / 3) * 4 + 1024);
  });

  test("a body declared larger: 413 payload_too_large in the API's error shape, saying the limit", async () => {
    const user = await createTestUser();
    const res = await call(mcp, {
      method: "POST",
      path: "/mcp",
      key: user.key,
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "content-length": String(MCP_BODY_MAX_BYTES + 1) },
      body: "{}",
    });
    assertTooLarge(res);
  });

  test("a streamed body that grows past it: the same 413", async () => {
    const user = await createTestUser();
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MCP_BODY_MAX_BYTES) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await call(mcp, { method: "POST", path: "/mcp", key: user.key, headers: { accept: "application/json, text/event-stream", "content-type": "application/json" }, body });
    assertTooLarge(res);
  });

  test("a recording past Next's 10 MB reaches the tool (its call is not cut to a -32700 Parse error)", async () => {
    const user = await createTestUser();
    const audio = Buffer.alloc(11 * 1024 * 1024, 7).toString("base64");
    const answer = await rpc(user.key, "tools/call", { name: "transcribe_audio", arguments: { audio_base64: audio, file_name: "big.bin" } });
    assert.equal(answer.body.error, undefined, answer.text.slice(0, 300));
    // The bytes are no audio: the tool answers as POST /transcribe would.
    assertToolRefusal(answer, "unsupported_audio");
  });

  // That the proxy, which Next cuts at 10 MB, leaves /mcp's calls alone: tests/unit/proxy-matcher.test.ts.
});

function assertTooLarge(res: CallResult) {
  assert.equal(res.status, 413, res.text);
  assert.equal(res.body.error.code, "payload_too_large");
  assert.match(res.body.error.message, new RegExp(`at most ${MCP_BODY_MAX_BYTES} bytes`));
  assert.match(res.body.error.message, /25 MiB/);
  assert.equal(res.body.error.request_id, res.headers.get("x-request-id"));
}

describe("methods of a stateless MCP server", () => {
  let user: TestUser;
  const refusedMethods: [string, RouteHandler][] = [["GET", GET], ["DELETE", DELETE], ["PUT", PUT], ["PATCH", PATCH]];

  test("GET (also asking for an event stream), DELETE, PUT, PATCH: 405 method_not_allowed with Allow: OPTIONS, POST, and the answer ends", async () => {
    user = await createTestUser();
    for (const [method, handler] of refusedMethods) {
      const res = await call(handler, { method, path: "/mcp", key: user.key, headers: { accept: "text/event-stream", "mcp-session-id": "any" } });
      assert.equal(res.status, 405, `${method}: ${res.text}`);
      assert.equal(res.headers.get("allow"), "OPTIONS, POST", method);
      assert.equal(res.body.error.code, "method_not_allowed", method);
      assert.match(res.body.error.message, new RegExp(`^${method} is not allowed on /mcp`));
      assert.equal(res.body.error.request_id, res.headers.get("x-request-id"), method);
      assert.notEqual(res.headers.get("content-type"), "text/event-stream", method);
    }
  });

  test("500 GETs on one key hold nothing open: each is answered at once", async () => {
    user ??= await createTestUser();
    const answers = await Promise.all(Array.from({ length: 500 }, () => call(GET, { path: "/mcp", key: user.key, headers: { accept: "text/event-stream" } })));
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [405]);
  });

  test("OPTIONS: 204 with Allow: OPTIONS, POST", async () => {
    const res = await call(OPTIONS, { method: "OPTIONS", path: "/mcp" });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("allow"), "OPTIONS, POST");
    assert.ok(res.headers.get("x-request-id"));
  });
});
