import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestNote, createTestUser } from "@/tests/support/factories.ts";
import { listConnectedApps, revokeConnectedApp } from "@/lib/oauth/connected-apps.ts";
import { consent, inProcessFetch, MCP_URL, ORIGIN, TestOAuthProvider } from "@/tests/api/oauth-support.ts";

// The whole connector flow, as claude.ai or VS Code runs it, with the MCP SDK's own client and
// OAuth provider against the route handlers: 401 → resource metadata → authorization-server
// metadata → dynamic registration → authorize with PKCE → consent (the person allows) → token
// → a tool call → refresh → disconnect in Connected apps → 401.

process.env.DATA_DIR = await mkdtemp(path.join(tmpdir(), "vd-oauth-"));
setUpTestDatabase();

const transportFor = (provider: TestOAuthProvider) => new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider, fetch: inProcessFetch });

/** Runs discovery, registration and authorization, the person answering Allow as `userId`. */
async function connect(userId: string, provider = new TestOAuthProvider()): Promise<{ client: Client; provider: TestOAuthProvider }> {
  const first = transportFor(provider);
  await assert.rejects(new Client({ name: "assistant", version: "1" }).connect(first), UnauthorizedError);
  assert.ok(provider.authorizationUrl, "the client was sent to authorize");
  const back = await consent(provider.authorizationUrl, userId, true);
  await first.finishAuth(back.searchParams.get("code")!);
  const client = new Client({ name: "assistant", version: "1" });
  await client.connect(transportFor(provider));
  return { client, provider };
}

type Notes = { structuredContent?: { notes: { id: string }[] }; isError?: boolean; content: { text: string }[] };
const listNotes = async (client: Client) => (await client.callTool({ name: "list_notes", arguments: {} })) as Notes;

async function mcpStatus(token: string): Promise<Response> {
  return inProcessFetch(MCP_URL, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
}

describe("OAuth for the MCP server", () => {
  test("discovery, registration, PKCE, consent, a tool call, refresh, disconnect → 401", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const mine = await createTestNote(user, "Call the printer about the flyers.");
    const theirs = await createTestNote(other, "Someone else's secret plan.");

    const { client, provider } = await connect(user.id);
    const authorizationUrl = provider.authorizationUrl!;
    assert.equal(authorizationUrl.searchParams.get("code_challenge_method"), "S256");
    assert.equal(authorizationUrl.searchParams.get("resource"), MCP_URL);
    assert.ok(provider.client?.client_id, "the client registered itself");

    const notes = await listNotes(client);
    assert.equal(notes.isError, undefined, notes.content[0]?.text);
    assert.deepEqual(notes.structuredContent!.notes.map((n) => n.id), [mine.id]);
    const foreign = (await client.callTool({ name: "get_note", arguments: { id: theirs.id } })) as Notes;
    assert.equal(foreign.isError, true, "another person's note is out of reach");

    const [app] = await listConnectedApps({ userId: user.id });
    assert.equal(app.name, "Test Assistant");
    assert.ok(app.scopes.includes("content:read"));
    assert.ok(app.allowedAt instanceof Date);
    assert.deepEqual(await listConnectedApps({ userId: other.id }), []);

    // Refresh, as the SDK does when it holds a refresh token: a new access token and a new
    // (rotated) refresh token; the new access token works.
    const before = provider.saved!;
    assert.ok(before.refresh_token, "a refresh token was issued");
    assert.equal(await auth(provider, { serverUrl: MCP_URL, fetchFn: inProcessFetch }), "AUTHORIZED");
    const after = provider.saved!;
    assert.notEqual(after.access_token, before.access_token);
    assert.notEqual(after.refresh_token, before.refresh_token);
    assert.equal((await mcpStatus(after.access_token)).status, 200);

    // Another person cannot disconnect it; its owner can, and then every token is refused.
    await assert.rejects(revokeConnectedApp({ userId: other.id, input: { id: app.id } }), { code: "not_found" });
    await revokeConnectedApp({ userId: user.id, input: { id: app.id } });
    const refused = await mcpStatus(after.access_token);
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get("www-authenticate"), `Bearer resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource"`);
    assert.deepEqual(await listConnectedApps({ userId: user.id }), []);
    const refresh = await inProcessFetch(`${ORIGIN}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: after.refresh_token!, client_id: provider.client!.client_id }),
    });
    assert.equal(refresh.status, 400);
    assert.equal(((await refresh.json()) as { error: string }).error, "invalid_grant");
    await client.close();
  });

  test("the metadata: RFC 9728 names the authorization server; RFC 8414 offers PKCE S256 only and registration", async () => {
    const resource = (await (await inProcessFetch(`${ORIGIN}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    assert.deepEqual(resource.authorization_servers, [ORIGIN]);
    assert.equal(resource.resource, MCP_URL);
    const res = await inProcessFetch(`${ORIGIN}/.well-known/oauth-authorization-server`);
    assert.equal(res.status, 200);
    const server = (await res.json()) as Record<string, unknown>;
    assert.equal(server.issuer, ORIGIN);
    assert.deepEqual(server.code_challenge_methods_supported, ["S256"]);
    assert.equal(server.registration_endpoint, `${ORIGIN}/oauth/register`);
    assert.equal(server.token_endpoint, `${ORIGIN}/oauth/token`);
    assert.equal(server.revocation_endpoint, `${ORIGIN}/oauth/revoke`);
    assert.deepEqual(server.response_types_supported, ["code"]);
  });
});
