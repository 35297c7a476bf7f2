import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { Browser, consent, inProcessFetch, MCP_URL, ORIGIN, REDIRECT_URI } from "@/tests/api/oauth-support.ts";
import { listConnectedApps } from "@/lib/oauth/connected-apps.ts";
import { guardedFetch, OUTBOUND_MAX_BYTES, OUTBOUND_TIMEOUT_MS, useGetter, type Answer } from "@/lib/oauth/guarded-fetch.ts";
import { useResolver } from "@/lib/webhooks/url-guard.ts";
import { SCOPES } from "@/lib/api-keys/scopes.ts";

// Issue 59, item 4: the authorization response names its issuer (RFC 9207's iss, which MCP's
// 2026-07-28 clients check), and a client may be known by a Client ID Metadata Document (its
// client_id an https URL this server fetches) beside dynamic registration. The fetch goes through
// the webhooks' address guard: public addresses only, no redirect followed, at most 5 KiB, in
// time. The network is the test's (useGetter) and so are the names (useResolver): the guard runs
// as it does in production before either is asked.

process.env.DATA_DIR = await mkdtemp(path.join(tmpdir(), "vd-oauth-cimd-"));
setUpTestDatabase();

const PUBLIC = "93.184.216.34";
const NAMES: Record<string, string[]> = {
  "app.example": [PUBLIC],
  "inside.example": ["10.0.0.7"],
  "rebound.example": [PUBLIC, "127.0.0.1"],
  "compatible.example": ["2606:4700::1111", "::7f00:1"],
};

type Route = (signal: AbortSignal) => Promise<Answer>;
const routes = new Map<string, Route>();
const fetched: { url: string; addresses: string[] }[] = [];

const chunks = async function* (text: string, size = 1024) {
  for (let i = 0; i < text.length; i += size) yield Buffer.from(text.slice(i, i + size));
};
const answer = (status: number, body: string, headers: Record<string, string> = {}): Route => async () => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: chunks(body),
  abort: () => {},
});
const hang: Route = (signal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));

let restore: (() => void)[] = [];
before(() => {
  restore = [
    useResolver(async (host) => NAMES[host] ?? Promise.reject(new Error("ENOTFOUND"))),
    useGetter(async (url, addresses, signal) => {
      fetched.push({ url: url.href, addresses });
      const route = routes.get(url.href);
      if (!route) throw new Error(`nothing at ${url.href}`);
      return route(signal);
    }),
  ];
});
after(() => restore.forEach((undo) => undo()));

/** A metadata document at `url`, as an app publishes it. */
function publish(url: string, overrides: Record<string, unknown> = {}) {
  const document = { client_id: url, client_name: "Example Assistant", redirect_uris: [REDIRECT_URI], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none", ...overrides };
  routes.set(url, answer(200, JSON.stringify(document), { "cache-control": "max-age=60" }));
}

const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

function authorizeUrl(clientId: string, verifier: string): URL {
  const url = new URL(`${ORIGIN}/oauth/authorize`);
  const params = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT_URI, scope: "content:read", state: "s1", resource: MCP_URL, code_challenge: challengeOf(verifier), code_challenge_method: "S256" };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url;
}

async function register(): Promise<string> {
  const res = await inProcessFetch(`${ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Registered", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", grant_types: ["authorization_code"], response_types: ["code"] }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { client_id: string }).client_id;
}

async function exchange(clientId: string, code: string, verifier: string): Promise<Response> {
  return inProcessFetch(`${ORIGIN}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT_URI, client_id: clientId, resource: MCP_URL }),
  });
}

/** Where the authorization of this client_id ends before any consent: the app's error page, with the OAuth error. */
async function refusedAuthorization(clientId: string): Promise<string | null> {
  const { location } = await new Browser().visit(authorizeUrl(clientId, "v".repeat(43)).href);
  assert.equal(location.pathname, "/oauth/error", location.href);
  return location.searchParams.get("error");
}

describe("the authorization response's issuer (RFC 9207)", () => {
  test("the metadata says so, and a code and a refusal both carry iss", async () => {
    const server = (await (await inProcessFetch(`${ORIGIN}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    assert.equal(server.authorization_response_iss_parameter_supported, true);
    assert.equal(server.client_id_metadata_document_supported, true);
    assert.equal(server.registration_endpoint, `${ORIGIN}/oauth/register`, "dynamic registration stays");

    const user = await createTestUser();
    const clientId = await register();
    const allowed = await consent(authorizeUrl(clientId, "a".repeat(43)), user.id, true);
    assert.ok(allowed.searchParams.get("code"));
    assert.equal(allowed.searchParams.get("iss"), ORIGIN);
    const denied = await consent(authorizeUrl(clientId, "b".repeat(43)), user.id, false);
    assert.equal(denied.searchParams.get("error"), "access_denied");
    assert.equal(denied.searchParams.get("iss"), ORIGIN);
  });
});

describe("an authorization request without a scope", () => {
  test("is sent on with the default, every scope of the API, for the person to answer", async () => {
    const url = authorizeUrl(await register(), "c".repeat(43));
    url.searchParams.delete("scope");
    const res = await inProcessFetch(url, { redirect: "manual" });
    assert.equal(res.status, 303);
    const next = new URL(res.headers.get("location")!, ORIGIN);
    assert.equal(next.pathname, "/oauth/authorize");
    assert.deepEqual(next.searchParams.get("scope")!.split(" "), [...SCOPES]);
    assert.equal(next.searchParams.get("state"), "s1", "the rest of the request as it was");
    const user = await createTestUser();
    const back = await consent(next, user.id, true);
    assert.ok(back.searchParams.get("code"), back.href);
  });
});

describe("Client ID Metadata Documents", () => {
  test("an https client_id is fetched once, on its checked public address; consent, code, token and /mcp follow", async () => {
    const user = await createTestUser();
    const clientId = "https://app.example/oauth/client.json";
    publish(clientId);
    const verifier = randomBytes(32).toString("base64url");
    const back = await consent(authorizeUrl(clientId, verifier), user.id, true);
    assert.equal(back.searchParams.get("iss"), ORIGIN);
    const mine = fetched.filter((f) => f.url === clientId);
    assert.equal(mine.length, 1, "kept for its Cache-Control, not fetched at every step");
    assert.deepEqual(mine[0].addresses, [PUBLIC]);

    const token = await exchange(clientId, back.searchParams.get("code")!, verifier);
    assert.equal(token.status, 200, await token.clone().text());
    const { access_token } = (await token.json()) as { access_token: string };
    const listed = await inProcessFetch(MCP_URL, {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(listed.status, 200, await listed.clone().text());
    const [app] = await listConnectedApps({ userId: user.id });
    assert.equal(app.name, "app.example", "named by the host that publishes it");
  });

  test("a document on a private address, or a name that also leads inside, is never fetched", async () => {
    for (const clientId of ["https://inside.example/client.json", "https://rebound.example/client.json", "https://compatible.example/client.json"]) {
      publish(clientId);
      assert.equal(await refusedAuthorization(clientId), "invalid_client", clientId);
      assert.equal(fetched.filter((f) => f.url === clientId).length, 0, clientId);
    }
    for (const clientId of ["https://127.0.0.1/client.json", "https://[::1]/client.json", "https://app.example:8443/client.json"]) {
      assert.equal(await refusedAuthorization(clientId), "invalid_client", clientId);
    }
    // An IPv4 address inside an IPv6 one (issue 66): IPv4-compatible, IPv4-mapped, NAT64, 6to4.
    for (const host of ["[::7f00:1]", "[::a00:1]", "[::ffff:a00:1]", "[64:ff9b::a00:1]", "[2002:a00:1::1]"]) {
      const clientId = `https://${host}/client.json`;
      publish(clientId);
      assert.equal(await refusedAuthorization(clientId), "invalid_client", clientId);
      assert.equal(fetched.filter((f) => f.url === clientId).length, 0, clientId);
    }
  });

  test("a redirect is not followed; a document too large, too slow, or naming another client_id is refused", async () => {
    const cases: [string, Route | Record<string, unknown>, string][] = [
      ["https://app.example/moved.json", answer(302, "", { location: "https://app.example/elsewhere.json" }), "invalid_client"],
      ["https://app.example/large.json", { client_name: "x".repeat(6 * 1024) }, "invalid_client"],
      ["https://app.example/slow.json", hang, "invalid_client"],
      ["https://app.example/other.json", { client_id: "https://app.example/oauth/client.json" }, "invalid_client_metadata"],
      // Checked as a registration is (lib/oauth/client-metadata.ts): http only to the person's own computer.
      ["https://app.example/http-redirect.json", { redirect_uris: ["http://evil.example/callback"] }, "invalid_redirect_uri"],
      // post_logout_redirect_uris by the same rules (issue 66).
      ["https://app.example/http-logout.json", { post_logout_redirect_uris: ["http://evil.example/bye"] }, "invalid_client_metadata"],
    ];
    for (const [clientId, route, error] of cases) {
      if (typeof route === "function") routes.set(clientId, route);
      else publish(clientId, route);
      const started = Date.now();
      assert.equal(await refusedAuthorization(clientId), error, clientId);
      // The library asks up to twice (the authorization, then its error's look-up of the client), each within the deadline.
      const tries = fetched.filter((f) => f.url === clientId).length;
      assert.ok(tries <= 2 && Date.now() - started < tries * OUTBOUND_TIMEOUT_MS + 1_500, `${clientId}: refused in ${Date.now() - started} ms, fetched ${tries} times`);
    }
    assert.equal(fetched.filter((f) => f.url === "https://app.example/elsewhere.json").length, 0, "the redirect was not followed");
  });
});

describe("the guarded fetch itself", () => {
  test("https only; public addresses only, whatever WEBHOOKS_ALLOW_PRIVATE says; bounded in size", async () => {
    await assert.rejects(guardedFetch("http://app.example/x"), /Only https/);
    const previous = process.env.WEBHOOKS_ALLOW_PRIVATE;
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    try {
      await assert.rejects(guardedFetch("https://inside.example/x"), /10\.0\.0\.7 is a private network address/);
      await assert.rejects(guardedFetch("https://localhost/x"), /this machine/);
      await assert.rejects(guardedFetch("https://169.254.169.254/latest"), /cloud metadata/);
      await assert.rejects(guardedFetch("https://[::7f00:1]/x"), /an IPv4 address inside/);
      await assert.rejects(guardedFetch("https://compatible.example/x"), /an IPv4 address inside/);
    } finally {
      if (previous === undefined) delete process.env.WEBHOOKS_ALLOW_PRIVATE;
      else process.env.WEBHOOKS_ALLOW_PRIVATE = previous;
    }
    routes.set("https://app.example/huge", answer(200, "x".repeat(OUTBOUND_MAX_BYTES + 1)));
    await assert.rejects(guardedFetch("https://app.example/huge"), /larger than 65536 bytes/);
    routes.set("https://app.example/moved", answer(301, "", { location: "https://inside.example/x" }));
    const moved = await guardedFetch("https://app.example/moved");
    assert.equal(moved.status, 301, "answered as it is, for the library to refuse");
    assert.equal(fetched.filter((f) => f.url === "https://inside.example/x").length, 0, "and not followed");
  });
});
