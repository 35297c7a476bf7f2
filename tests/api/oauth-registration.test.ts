import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { db } from "@/lib/db/client.ts";
import { readConsentRequest } from "@/lib/oauth/consent.ts";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { Browser, inProcessFetch, ORIGIN } from "@/tests/api/oauth-support.ts";

// Issue 60, item 3: what dynamic client registration takes. OAuth 2.1 and RFC 8252: a redirect
// URI is https (without user info), or http to a loopback address (a program on the person's own
// computer), or a private-use scheme of a native app; nothing else, and nothing a parser would
// read two ways (control characters, spaces, fragments, `http:` without `//`). A client may not
// call itself Voicedraft. The consent page names where the code goes as loudly as the client.

process.env.DATA_DIR = await mkdtemp(path.join(tmpdir(), "vd-oauth-registration-"));
// Many registrations from one test address: the per-address limit has its own test (mcp-oauth).
process.env.RATE_LIMIT_OAUTH_REGISTRATIONS_PER_HOUR = "0";
setUpTestDatabase();

type OAuthError = { error?: string; error_description?: string; client_id?: string };

async function register(metadata: Record<string, unknown>): Promise<{ status: number; body: OAuthError }> {
  const res = await inProcessFetch(`${ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "An Assistant", token_endpoint_auth_method: "none", ...metadata }),
  });
  return { status: res.status, body: (await res.json()) as OAuthError };
}

const clientCount = async () => (await db()).oAuthRecord.count({ where: { model: "Client" } });

describe("redirect URIs (OAuth 2.1 §2.3.1, RFC 8252)", () => {
  test("anything but https, loopback http or a native app's scheme: 400 invalid_redirect_uri, and no client is kept", async () => {
    const refused = [
      "http://evil.example/cb",
      "http://10.0.0.5/cb",
      "http://127.0.0.1.evil.example/cb",
      "http:evil.example",
      "http://0.0.0.0/cb",
      "https://user:pw@evil.example/cb",
      "http://user@127.0.0.1/cb",
      "https://app.example/cb\n",
      "http://127.0.0.1/cb\n",
      "https://app.example/c b",
      "https://app.example/c\tb",
      "https://app.example/cb#x",
      "https://app.example\\@evil.example/cb",
      "http://localhost.evil.example/cb",
      "http://[::2]/cb",
      "https:app.example/cb",
      "ftp://app.example/cb",
      "wss://app.example/cb",
      "//app.example/cb",
      "/cb",
      "https://",
    ];
    const before = await clientCount();
    for (const uri of refused) {
      const { status, body } = await register({ redirect_uris: [uri] });
      assert.equal(status, 400, `${JSON.stringify(uri)}: ${JSON.stringify(body)}`);
      assert.equal(body.error, "invalid_redirect_uri", JSON.stringify(uri));
      assert.ok(body.error_description, JSON.stringify(uri));
      assert.equal(body.client_id, undefined);
    }
    // One bad URI among good ones refuses the registration too.
    const mixed = await register({ redirect_uris: ["https://app.example/cb", "http://evil.example/cb"] });
    assert.equal(mixed.body.error, "invalid_redirect_uri");
    assert.equal(await clientCount(), before, "no refused client was kept");
  });

  test("https anywhere, http to 127.0.0.1, [::1] or localhost on any port, and a native app's own scheme: 201", async () => {
    const accepted: [string, Record<string, unknown>?][] = [
      ["https://claude.ai/api/mcp/auth_callback"],
      ["https://app.example:8443/cb?x=1"],
      ["http://127.0.0.1:33418/callback"],
      ["http://127.0.0.1/cb"],
      ["http://localhost:6274/oauth/callback"],
      ["http://[::1]:9000/cb"],
      ["com.example.app:/cb", { application_type: "native" }],
      ["cursor://anysphere.cursor-mcp/oauth/callback", { application_type: "native" }],
    ];
    for (const [uri, extra] of accepted) {
      const { status, body } = await register({ redirect_uris: [uri], ...extra });
      assert.equal(status, 201, `${uri}: ${JSON.stringify(body)}`);
      assert.ok(body.client_id);
    }
  });
});

describe("post-logout redirect URIs (issue 66): the same rules as redirect URIs", () => {
  test("anything but https, loopback http or a native app's scheme: 400 invalid_client_metadata naming the field, and no client is kept", async () => {
    const before = await clientCount();
    for (const uri of ["http://evil.example/bye", "https://user:pw@evil.example/bye", "https://app.example/bye#x", "https://app.example/b\nye", "javascript:alert(1)", "http://10.0.0.5/bye", "//app.example/bye"]) {
      const { status, body } = await register({ redirect_uris: ["https://app.example/cb"], post_logout_redirect_uris: ["https://app.example/bye", uri] });
      assert.equal(status, 400, `${JSON.stringify(uri)}: ${JSON.stringify(body)}`);
      assert.equal(body.error, "invalid_client_metadata", JSON.stringify(uri));
      assert.match(body.error_description ?? "", /^post_logout_redirect_uris: /, JSON.stringify(uri));
    }
    assert.equal(await clientCount(), before, "no refused client was kept");
    for (const uri of ["https://app.example/bye", "http://127.0.0.1:33418/bye"]) {
      const { status, body } = await register({ redirect_uris: ["https://app.example/cb"], post_logout_redirect_uris: [uri] });
      assert.equal(status, 201, `${uri}: ${JSON.stringify(body)}`);
    }
  });
});

describe("client names", () => {
  test("this site's name, however written: 400 invalid_client_metadata", async () => {
    const before = await clientCount();
    // Plain, upper case, spaced, full-width, Cyrillic о and е, a soft hyphen, accents, ligature-free
    // compatibility forms, and this server's own host name.
    for (const name of ["Voicedraft", "VOICEDRAFT", " voice draft ", "Voice-Draft", "Ｖｏｉｃｅｄｒａｆｔ", "V\u043eic\u0435draft", "Voice\u00addraft", "Vöicedraft", "ⓥoicedraft", "V0icedraft", "localhost"]) {
      const { status, body } = await register({ client_name: name, redirect_uris: ["https://app.example/cb"] });
      assert.equal(status, 400, `${JSON.stringify(name)}: ${JSON.stringify(body)}`);
      assert.equal(body.error, "invalid_client_metadata", JSON.stringify(name));
      assert.match(body.error_description ?? "", /client_name/);
    }
    assert.equal(await clientCount(), before);
    for (const name of ["Claude", "Voicedraft helper for Claude", "VS Code"]) {
      assert.equal((await register({ client_name: name, redirect_uris: ["https://app.example/cb"] })).status, 201, name);
    }
  });

  test("a NUL, another control character or a direction override in client_name: 400 invalid_client_metadata, not 500", async () => {
    for (const name of ["Evil\u0000", "\u0000", "Line\nbreak", "Bell\u0007", "\u202etfardecioV", "Zero\u200bwidth", "Lone \ud800"]) {
      const { status, body } = await register({ client_name: name, redirect_uris: ["https://app.example/cb"] });
      assert.equal(status, 400, `${JSON.stringify(name)}: ${JSON.stringify(body)}`);
      assert.equal(body.error, "invalid_client_metadata", JSON.stringify(name));
    }
  });

  test("a NUL in any other field is refused alike", async () => {
    for (const field of ["client_uri", "logo_uri", "policy_uri", "tos_uri"]) {
      const { status, body } = await register({ [field]: "https://app.example/x\u0000", redirect_uris: ["https://app.example/cb"] });
      assert.equal(status, 400, `${field}: ${JSON.stringify(body)}`);
      assert.equal(body.error, "invalid_client_metadata", field);
    }
  });
});

describe("the consent page", () => {
  async function consentFor(redirectUri: string, extra: Record<string, unknown> = {}) {
    const registered = await register({ client_name: "Some Assistant", redirect_uris: [redirectUri], ...extra });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const url = new URL(`${ORIGIN}/oauth/authorize`);
    const challenge = createHash("sha256").update("a-verifier-of-forty-three-characters-or-more-0123456789").digest("base64url");
    url.search = new URLSearchParams({ response_type: "code", client_id: registered.body.client_id!, redirect_uri: redirectUri, scope: "content:read", code_challenge: challenge, code_challenge_method: "S256" }).toString();
    const browser = new Browser();
    const { location } = await browser.visit(url.href);
    assert.match(location.pathname, /^\/oauth\/consent\//);
    return readConsentRequest({ issuer: ORIGIN, uid: location.pathname.split("/").pop()!, cookieUid: browser.cookie("_interaction") });
  }

  test("names the host the code goes back to, beside the client's name (the page's heading: app/oauth/consent)", async () => {
    const web = await consentFor("https://assistant.example/cb");
    assert.equal(web.clientName, "Some Assistant");
    assert.deepEqual(web.returnsTo, { host: "assistant.example", onThisDevice: false });
    assert.deepEqual((await consentFor("http://127.0.0.1:33418/callback")).returnsTo, { host: "127.0.0.1:33418", onThisDevice: true });
    assert.deepEqual((await consentFor("com.example.app:/cb", { application_type: "native" })).returnsTo, { host: "com.example.app", onThisDevice: true });
  });
});
