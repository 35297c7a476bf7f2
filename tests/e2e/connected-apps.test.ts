import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "@/tests/e2e/fixtures.ts";
import type { Page } from "@playwright/test";
import { assertAccessible, assertTappable, newPhone, PASSWORD, screenshot, signUp, type App } from "@/tests/e2e/support.ts";

// Issue 46 (OAuth for the MCP server) on a phone at 360×740, light and dark: an assistant sends
// the person to authorize; they sign in and come back to the consent screen, which says in plain
// words what the app may do; Allow returns a code to the app, whose token reaches /mcp; Settings →
// Connected apps lists it, shows the /mcp address, and Disconnect ends its access.

// The assistant's redirect URI: a program on the person's machine that only has to answer.
const assistant = createServer((_req, res) => res.end("back in the assistant"));
let REDIRECT_URI = "";
test.beforeAll(async () => {
  await new Promise<void>((resolve) => assistant.listen(0, "127.0.0.1", resolve));
  REDIRECT_URI = `http://127.0.0.1:${(assistant.address() as AddressInfo).port}/callback`;
});
test.afterAll(() => {
  assistant.close();
});

async function registerClient(page: Page, name: string): Promise<string> {
  const res = await page.request.post("/oauth/register", {
    data: { client_name: name, redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] },
  });
  assert.equal(res.status(), 201, await res.text());
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizeUrl(app: App, clientId: string, verifier: string): string {
  const url = new URL(`${app.url}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: "content:read content:write offline_access",
    resource: `${app.url}/mcp`,
    state: "e2e",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  return url.href;
}

async function mcpStatus(page: Page, token: string): Promise<number> {
  const res = await page.request.post("/mcp", {
    headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  return res.status();
}

for (const scheme of ["light", "dark"] as const) {
  test(`${scheme}: sign in and come back, consent in plain words, Allow, then Connected apps and Disconnect`, async ({ app }) => {
    const { context, page } = await newPhone(app, { colorScheme: scheme });
    try {
      // An app that is not registered: the error the server cannot send back is shown in the app's look.
      await page.goto(`/oauth/authorize?response_type=code&client_id=unknown-app&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`);
      await page.getByRole("heading", { name: "Could not connect the app" }).waitFor();
      await page.getByText("This app is not registered here").waitFor();
      await screenshot(page, `oauth-error-${scheme}`, { fullPage: false });

      const email = await signUp(page);
      await context.clearCookies(); // signed out: the authorization asks to sign in first
      const clientId = await registerClient(page, "Claude");
      const verifier = randomBytes(32).toString("base64url");
      await page.goto(authorizeUrl(app, clientId, verifier));
      await page.waitForURL(/\/sign-in\?next=/);
      await page.getByText("Sign in to connect an app to your notes.").waitFor();
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();

      await page.waitForURL(/\/oauth\/consent\//);
      await page.getByRole("heading", { name: `Allow Claude at ${new URL(REDIRECT_URI).host}?` }).waitFor();
      const scopes = page.getByRole("list", { name: "What the app may do" });
      assert.deepEqual(await scopes.getByRole("listitem").allTextContents(), ["Read your notes, to-dos and posts", "Edit your notes and make posts (never publish them)"]);
      await assertAccessible(page, `consent (${scheme})`);
      await screenshot(page, `oauth-consent-${scheme}`);

      await page.getByRole("button", { name: "Allow" }).click();
      await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI));
      const back = new URL(page.url());
      assert.equal(back.searchParams.get("state"), "e2e");
      const code = back.searchParams.get("code");
      assert.ok(code, `a code came back: ${page.url()}`);
      const tokenRes = await page.request.post(`${app.url}/oauth/token`, {
        form: { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT_URI, client_id: clientId },
      });
      assert.equal(tokenRes.status(), 200, await tokenRes.text());
      const { access_token } = (await tokenRes.json()) as { access_token: string };
      assert.equal(await mcpStatus(page, access_token), 200);

      await page.goto("/connected-apps");
      const card = page.getByTestId("connected-app");
      await card.getByText("Claude").waitFor();
      assert.equal(await page.getByTestId("mcp-address").textContent(), `${app.url}/mcp`);
      await card.getByText("Read your notes, to-dos and posts").waitFor();
      await assertAccessible(page, `connected apps (${scheme})`);
      // What the phone shows: the page's top, then the app's card scrolled into view (a full-page
      // shot draws the fixed bars over the middle of the page).
      await screenshot(page, `connected-apps-${scheme}`, { fullPage: false });
      await card.getByRole("button", { name: "Disconnect" }).evaluate((el) => el.scrollIntoView({ block: "center" }));
      await assertTappable(card.getByRole("button", { name: "Disconnect" }), "Disconnect");
      await screenshot(page, `connected-apps-card-${scheme}`, { fullPage: false });

      page.once("dialog", (dialog) => void dialog.accept());
      await card.getByRole("button", { name: "Disconnect" }).click();
      await page.getByText("No apps connected").waitFor();
      await screenshot(page, `connected-apps-empty-${scheme}`, { fullPage: false });
      assert.equal(await mcpStatus(page, access_token), 401);
    } finally {
      await context.close();
    }
  });
}

test("Deny on the consent screen sends the app access_denied", async ({ app }) => {
  const { context, page } = await newPhone(app);
  try {
    // Discovery on the running server, as a connector starts: the resource names this site as
    // its authorization server, whose RFC 8414 metadata has this site as issuer.
    const resource = (await (await page.request.get("/.well-known/oauth-protected-resource")).json()) as { authorization_servers: string[] };
    assert.deepEqual(resource.authorization_servers, [app.url]);
    const metadata = await page.request.get("/.well-known/oauth-authorization-server");
    assert.equal(metadata.status(), 200);
    assert.equal(((await metadata.json()) as { issuer: string }).issuer, app.url);

    await signUp(page);
    const clientId = await registerClient(page, "Some Assistant");
    await page.goto(authorizeUrl(app, clientId, randomBytes(32).toString("base64url")));
    await page.getByRole("heading", { name: `Allow Some Assistant at ${new URL(REDIRECT_URI).host}?` }).waitFor();
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI));
    assert.equal(new URL(page.url()).searchParams.get("error"), "access_denied");
  } finally {
    await context.close();
  }
});
