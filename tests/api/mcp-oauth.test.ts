import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestNote, createTestUser } from "@/tests/support/factories.ts";
import { listConnectedApps, revokeConnectedApp } from "@/lib/oauth/connected-apps.ts";
import { oauthProvider } from "@/lib/oauth/provider.ts";
import { deleteAccount } from "@/lib/accounts/delete-account.ts";
import { db } from "@/lib/db/client.ts";
import { Browser, consent, inProcessFetch, MCP_URL, ORIGIN, REDIRECT_URI, TestOAuthProvider } from "@/tests/api/oauth-support.ts";

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

  test("the signing key is the one kept in DATA_DIR (owner-only), so a restart keeps it", async () => {
    const file = path.join(process.env.DATA_DIR!, "oauth-signing-key.json");
    const kept = JSON.parse(await readFile(file, "utf8")) as { n: string; d?: string };
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const jwks = (await (await inProcessFetch(`${ORIGIN}/oauth/jwks`)).json()) as { keys: { n: string; d?: string }[] };
    assert.deepEqual(jwks.keys.map((k) => k.n), [kept.n]);
    assert.equal(jwks.keys[0].d, undefined, "the private part is never served");
    assert.equal((await stat(path.join(process.env.DATA_DIR!, "oauth-cookie-key"))).mode & 0o777, 0o600);
  });
});

// A client of its own, for the requests the SDK would never make.
async function register(): Promise<string> {
  const res = await inProcessFetch(`${ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Hand-made", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizeUrl(clientId: string, extra: Record<string, string>): URL {
  const url = new URL(`${ORIGIN}/oauth/authorize`);
  const params = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT_URI, scope: "content:read", state: "s1", ...extra };
  for (const [name, value] of Object.entries(params)) if (value) url.searchParams.set(name, value);
  return url;
}

const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");
const VERIFIER = "a-verifier-of-forty-three-characters-or-more-0123456789";

describe("OAuth refusals", () => {
  test("PKCE is required, and only S256: plain and missing challenges are refused", async () => {
    const clientId = await register();
    for (const pkce of [{ code_challenge: VERIFIER, code_challenge_method: "plain" }, {}] as Record<string, string>[]) {
      const { location } = await new Browser().visit(authorizeUrl(clientId, pkce).href);
      assert.equal(location.origin + location.pathname, REDIRECT_URI, JSON.stringify(pkce));
      assert.equal(location.searchParams.get("error"), "invalid_request", JSON.stringify(pkce));
    }
  });

  test("a token for another resource is neither issued nor accepted by /mcp", async () => {
    const user = await createTestUser();
    const clientId = await register();
    const pkce = { code_challenge: challengeOf(VERIFIER), code_challenge_method: "S256" };
    const { location } = await new Browser().visit(authorizeUrl(clientId, { ...pkce, resource: "https://elsewhere.example/api" }).href);
    assert.equal(location.searchParams.get("error"), "invalid_target");

    // One the server would never make, stored as its own are: /mcp checks the audience.
    const provider = await oauthProvider(ORIGIN);
    const grant = new provider.Grant({ accountId: user.id, clientId });
    grant.addResourceScope("https://elsewhere.example/api", "content:read");
    const grantId = await grant.save();
    const client = (await provider.Client.find(clientId))!;
    const token = new provider.AccessToken({ accountId: user.id, client, grantId, gty: "authorization_code", scope: "content:read" });
    token.aud = "https://elsewhere.example/api";
    const elsewhere = await token.save();
    const res = await mcpStatus(elsewhere);
    assert.equal(res.status, 401);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /not for http:\/\/localhost\/mcp/);
    token.aud = MCP_URL;
    assert.equal((await mcpStatus(await token.save())).status, 200, "the same token for /mcp is accepted");
  });

  test("Deny sends the app access_denied and grants nothing", async () => {
    const user = await createTestUser();
    const provider = new TestOAuthProvider();
    await assert.rejects(new Client({ name: "assistant", version: "1" }).connect(transportFor(provider)), UnauthorizedError);
    const back = await consent(provider.authorizationUrl!, user.id, false);
    assert.equal(back.searchParams.get("error"), "access_denied");
    assert.equal(back.searchParams.get("code"), null);
    assert.deepEqual(await listConnectedApps({ userId: user.id }), []);
  });

  test("unknown, revoked (RFC 7009) and reused refresh tokens are refused", async () => {
    const user = await createTestUser();
    const unknown = await mcpStatus("not-a-token-of-ours");
    assert.equal(unknown.status, 401);
    assert.match(unknown.headers.get("www-authenticate") ?? "", /resource_metadata=/);

    const refresh = (provider: TestOAuthProvider, token: string) =>
      inProcessFetch(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: provider.client!.client_id }),
      });

    // RFC 7009 revocation of the access token: /mcp refuses it, and the library ends the grant.
    const revoked = await connect(user.id);
    await revoked.client.close();
    const tokens = revoked.provider.saved!;
    const revoke = await inProcessFetch(`${ORIGIN}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.access_token, client_id: revoked.provider.client!.client_id }),
    });
    assert.equal(revoke.status, 200);
    assert.equal((await mcpStatus(tokens.access_token)).status, 401);
    assert.equal((await refresh(revoked.provider, tokens.refresh_token!)).status, 400);

    // A refresh token is used once: the second use is refused (and, as the library does, ends the grant).
    const reused = await connect(user.id);
    await reused.client.close();
    const first = await refresh(reused.provider, reused.provider.saved!.refresh_token!);
    assert.equal(first.status, 200);
    const second = await refresh(reused.provider, reused.provider.saved!.refresh_token!);
    assert.equal(second.status, 400);
    assert.equal(((await second.json()) as { error: string }).error, "invalid_grant");
    assert.equal((await mcpStatus(((await first.json()) as { access_token: string }).access_token)).status, 401, "the reuse ended the grant");
  });

  test("an authorization code is used once; a second use is refused", async () => {
    const user = await createTestUser();
    const clientId = await register();
    const verifier = randomBytes(32).toString("base64url");
    const back = await consent(authorizeUrl(clientId, { code_challenge: challengeOf(verifier), code_challenge_method: "S256" }), user.id, true);
    const exchange = () =>
      inProcessFetch(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: back.searchParams.get("code")!, code_verifier: verifier, redirect_uri: REDIRECT_URI, client_id: clientId }),
      });
    const first = await exchange();
    assert.equal(first.status, 200, await first.clone().text());
    const { access_token } = (await first.json()) as { access_token: string };
    const second = await exchange();
    assert.equal(second.status, 400);
    assert.equal(((await second.json()) as { error: string }).error, "invalid_grant");
    assert.equal((await mcpStatus(access_token)).status, 401, "a replayed code ends what the first use gave");
  });

  test("a wrong PKCE verifier is refused at the token endpoint", async () => {
    const user = await createTestUser();
    const clientId = await register();
    const back = await consent(authorizeUrl(clientId, { code_challenge: challengeOf(VERIFIER), code_challenge_method: "S256" }), user.id, true);
    const res = await inProcessFetch(`${ORIGIN}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: back.searchParams.get("code")!, code_verifier: `${VERIFIER}-not`, redirect_uri: REDIRECT_URI, client_id: clientId }),
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, "invalid_grant");
  });

  test("deleting the account deletes its grants and tokens", async () => {
    const user = await createTestUser();
    const { client, provider } = await connect(user.id);
    await client.close();
    await deleteAccount({ userId: user.id });
    assert.equal((await mcpStatus(provider.saved!.access_token)).status, 401);
    assert.equal(await (await db()).oAuthRecord.count({ where: { accountId: user.id } }), 0);
  });

  test("open registration is limited per address (RATE_LIMIT_OAUTH_REGISTRATIONS_PER_HOUR, 20)", async () => {
    const registerFrom = (ip: string) =>
      inProcessFetch(`${ORIGIN}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": ip },
        body: JSON.stringify({ client_name: "Many", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }),
      });
    for (let i = 0; i < 20; i++) assert.equal((await registerFrom("203.0.113.9")).status, 201);
    const refused = await registerFrom("203.0.113.9");
    assert.equal(refused.status, 429);
    assert.equal(((await refused.json()) as { error: string }).error, "rate_limited");
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.equal((await registerFrom("198.51.100.7")).status, 201, "another address still registers");
  });
});
