import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { POST as mcp } from "@/app/mcp/route.ts";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestNote, createTestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { connectMcp } from "@/tests/support/mcp-client.ts";

// Issue 59: /mcp speaks today's protocol (2026-07-28: no initialize, each request names its
// version and capabilities, server/discover) and still answers 2025-11-25's clients, by the
// version each request names. The SDK 2 client, pinned to one revision and then the other, sees
// the same server; and what 2026-07-28 asks of an HTTP request (its Mcp-Method and Mcp-Name
// headers), when absent or not the body's, is a JSON-RPC error that says so.

setUpTestDatabase();

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "by-hand", version: "1" },
};

/** A 2026-07-28 request by hand: the version header, the given Mcp-* headers, the _meta envelope. */
async function modern(key: string, method: string, params: Record<string, unknown>, headers: Record<string, string>) {
  return call(mcp, {
    method: "POST",
    path: "/mcp",
    key,
    headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", ...headers },
    json: { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } },
  });
}

describe("MCP revisions", () => {
  test("a 2026-07-28 client and a 2025-11-25 client list the same tools, prompts and templates, and read the same note", async () => {
    const user = await createTestUser();
    const note = await createTestNote(user, "We ship the new editor on Friday.");
    const today = await connectMcp(user.key, "2026-07-28");
    const before = await connectMcp(user.key, "2025-11-25");
    assert.equal(today.getProtocolEra(), "modern");
    assert.equal(today.getNegotiatedProtocolVersion(), "2026-07-28");
    assert.equal(before.getProtocolEra(), "legacy");
    assert.equal(before.getNegotiatedProtocolVersion(), "2025-11-25");

    const [a, b] = await Promise.all([today.listTools(), before.listTools()]);
    assert.equal(a.tools.length, 11);
    assert.deepEqual(a.tools, b.tools, "the same tools, schemas and hints in either revision");
    assert.deepEqual((await today.listPrompts()).prompts, (await before.listPrompts()).prompts);
    assert.deepEqual((await today.listResourceTemplates()).resourceTemplates, (await before.listResourceTemplates()).resourceTemplates);
    for (const client of [today, before]) {
      const found = await client.callTool({ name: "search_notes", arguments: { query: "editor" } });
      assert.deepEqual((found.structuredContent as { notes: { id: string }[] }).notes.map((n) => n.id), [note.id]);
      const read = await client.readResource({ uri: `note://${note.id}` });
      assert.match((read.contents[0] as { text: string }).text, /new editor on Friday/);
    }
    await today.close();
    await before.close();
  });

  test("server/discover: the revision, capabilities and server, with cache fields; lists carry ttlMs, cacheScope and resultType", async () => {
    const user = await createTestUser();
    const discover = await modern(user.key, "server/discover", {}, { "mcp-method": "server/discover" });
    assert.equal(discover.status, 200, discover.text);
    const { result } = discover.body;
    assert.deepEqual(result.supportedVersions, ["2026-07-28"]);
    assert.deepEqual(Object.keys(result.capabilities).sort(), ["extensions", "logging", "prompts", "resources", "tools"]);
    assert.deepEqual(Object.keys(result.capabilities.extensions), ["io.modelcontextprotocol/ui"], "MCP Apps: get_posts' page");
    assert.equal(result.capabilities.tools.listChanged, false, "no list_changed is ever sent");
    assert.equal(result._meta["io.modelcontextprotocol/serverInfo"].name, "voicedraft");
    assert.equal(result.resultType, "complete");

    for (const method of ["tools/list", "prompts/list", "resources/templates/list"]) {
      const listed = await modern(user.key, method, {}, { "mcp-method": method });
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.body.result.resultType, "complete", method);
      assert.equal(listed.body.result.ttlMs, 300_000, method);
      assert.equal(listed.body.result.cacheScope, "private", `${method}: what a key may see is that key's`);
    }
    const called = await modern(user.key, "tools/call", { name: "list_tags", arguments: {} }, { "mcp-method": "tools/call", "mcp-name": "list_tags" });
    assert.equal(called.body.result.resultType, "complete", called.text);
    assert.deepEqual(called.body.result.structuredContent, { tags: [] });
  });

  test("Mcp-Method and Mcp-Name: absent or not the body's, a 400 with a JSON-RPC HeaderMismatch error that says which", async () => {
    const user = await createTestUser();
    const cases: [string, Record<string, unknown>, Record<string, string>, RegExp][] = [
      ["tools/list", {}, {}, /Mcp-Method header is absent/],
      ["tools/list", {}, { "mcp-method": "prompts/list" }, /Mcp-Method/],
      ["tools/call", { name: "list_tags", arguments: {} }, { "mcp-method": "tools/call" }, /Mcp-Name header is absent/],
      ["tools/call", { name: "list_tags", arguments: {} }, { "mcp-method": "tools/call", "mcp-name": "get_note" }, /Mcp-Name header names "get_note"/],
      ["resources/read", { uri: "note://x" }, { "mcp-method": "resources/read" }, /Mcp-Name header is absent/],
      ["prompts/get", { name: "weekly_review" }, { "mcp-method": "prompts/get", "mcp-name": "draft_post" }, /Mcp-Name/],
    ];
    for (const [method, params, headers, message] of cases) {
      const res = await modern(user.key, method, params, headers);
      assert.equal(res.status, 400, `${method} ${JSON.stringify(headers)}: ${res.text}`);
      assert.equal(res.body.jsonrpc, "2.0");
      assert.equal(res.body.id, 1);
      assert.equal(res.body.error.code, -32020, res.text);
      assert.match(res.body.error.message, message);
    }
  });

  test("a version the server does not speak is refused with the ones it does; a request naming none is 2025's", async () => {
    const user = await createTestUser();
    const unknown = await call(mcp, {
      method: "POST",
      path: "/mcp",
      key: user.key,
      headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2027-01-01", "mcp-method": "tools/list" },
      json: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2027-01-01" } } },
    });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.body.error.code, -32022, unknown.text);
    assert.ok(unknown.body.error.data.supported.includes("2026-07-28"), unknown.text);

    const legacy = await call(mcp, { method: "POST", path: "/mcp", key: user.key, headers: { accept: "application/json, text/event-stream" }, json: { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} } });
    assert.equal(legacy.status, 200, legacy.text);
    assert.equal(legacy.headers.get("content-type"), "application/json");
    assert.equal(legacy.body.result.tools.length, 11);
    assert.equal(legacy.body.result.ttlMs, undefined, "2025's results have no cache fields");
  });

  test("2026-07-28 keeps the key's rules: no key is 401 before any protocol answer, another person's note is not found", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const theirs = await createTestNote(other, "Someone else's plan.");
    const anonymous = await call(mcp, {
      method: "POST",
      path: "/mcp",
      headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" },
      json: { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } },
    });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error.code, "unauthorized");
    const uri = `note://${theirs.id}`;
    const read = await modern(user.key, "resources/read", { uri }, { "mcp-method": "resources/read", "mcp-name": uri });
    assert.equal(read.body.error.code, -32602, read.text);
    assert.equal(read.body.error.data.error.code, "not_found");
  });
});
