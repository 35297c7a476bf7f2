import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/client";
import { chromium, type Browser, type FrameLocator, type Page } from "playwright-core";
import { MCP_APP_MIME_TYPE, POSTS_APP_HTML, POSTS_APP_URI } from "@/lib/mcp/posts-app.ts";
import { content, createChannel, LONG_NOTE, setUpContentTests, waitForGeneration } from "@/tests/api/content-support.ts";
import { createTestNote, createTestUser } from "@/tests/support/factories.ts";
import { connectMcp } from "@/tests/support/mcp-client.ts";
import { ROOT } from "@/tests/support/processes.ts";

// Issue 59: an MCP App. get_posts names a ui:// page (text/html;profile=mcp-app) that a host
// renders with the tool's result: each post as the phone shows it (its platform, its length as the
// platform counts it, a thread post by post), Copy, "Open in X" and "Approve in Voicedraft". Here a
// host of the test's own frames the page in Debian's Chromium as a client would (a sandboxed iframe
// with the resource as its document, JSON-RPC over postMessage: ui/initialize, the tool's result,
// ui/open-link). Issue 66: no tool approves, for any client: approval is given in Voicedraft's own
// app, which the page opens; a client declaring the apps extension calling approve_post gets the
// protocol's unknown-tool error, on both revisions.

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
setUpContentTests();

const SCREENSHOTS = path.join(ROOT, "tests", "e2e", "screenshots");
const PHONE = { width: 360, height: 740 };
type Tool = { name: string; _meta?: { ui?: { resourceUri?: string; visibility?: string[] } } };
/** What a host that renders apps hands its model: every tool but those only its apps may call. */
const modelTools = (tools: Tool[]) => tools.filter((t) => t._meta?.ui?.visibility?.includes("model") ?? true);
const appTools = (tools: Tool[]) => tools.filter((t) => t._meta?.ui?.visibility?.includes("app") ?? true);

// The host: a chat's frame around the app's iframe. It answers the app's requests, sends the
// tool's result once the app is ready, passes the app's tool calls on (only tools the app may
// call), and keeps the links the app asked it to open.
const HOST_PAGE = `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<style>:root { color-scheme: light dark; } body { margin: 0; font: 14px system-ui, sans-serif; background: Canvas; color: CanvasText; }
header { padding: 10px 12px; font-weight: 600; border-bottom: 1px solid #8884; } iframe { display: block; border: 0; width: 100%; height: 600px; }</style>
</head><body><header>Assistant · Read posts</header><iframe id="app" sandbox="allow-scripts" title="Posts from a note"></iframe></body></html>`;

function hostScript({ html, toolResult, theme, appToolNames }: { html: string; toolResult: unknown; theme: string; appToolNames: string[] }) {
  const frame = document.getElementById("app") as HTMLIFrameElement;
  const w = window as unknown as { openedLinks: string[]; refused: string[]; callServerTool(name: string, args: unknown): Promise<unknown> };
  w.openedLinks = [];
  w.refused = [];
  window.addEventListener("message", async (event) => {
    if (event.source !== frame.contentWindow) return;
    const message = event.data as { id?: number; method?: string; params?: Record<string, unknown> };
    const post = (data: Record<string, unknown>) => frame.contentWindow!.postMessage({ jsonrpc: "2.0", ...data }, "*");
    const reply = (result: unknown) => post({ id: message.id, result });
    switch (message.method) {
      case "ui/initialize":
        return reply({ protocolVersion: message.params!.protocolVersion, hostInfo: { name: "test-host", version: "1" }, hostCapabilities: { openLinks: {}, serverTools: {} }, hostContext: { theme } });
      case "ui/notifications/initialized":
        return post({ method: "ui/notifications/tool-result", params: toolResult });
      case "tools/call": {
        const name = String(message.params!.name);
        if (!appToolNames.includes(name)) {
          w.refused.push(name);
          return post({ id: message.id, error: { code: -32601, message: `${name} is not a tool this app may call` } });
        }
        try {
          return reply(await w.callServerTool(name, message.params!.arguments));
        } catch (err) {
          return post({ id: message.id, error: { code: -32603, message: String(err) } });
        }
      }
      case "ui/open-link":
        w.openedLinks.push(String(message.params!.url));
        return reply({});
      case "ui/notifications/size-changed":
        frame.style.height = `${Math.max(200, Number(message.params!.height) + 4)}px`;
    }
  });
  frame.srcdoc = html;
}

let browser: Browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  await mkdir(SCREENSHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
});

/** A person with a note, an X and a LinkedIn channel, and their posts written: the master's id. */
async function personWithPosts() {
  const user = await createTestUser();
  const note = await createTestNote(user, LONG_NOTE);
  await createChannel(user.key, "x");
  await createChannel(user.key, "linkedin");
  const client = await connectMcp(user.key, "2026-07-28", { apps: true });
  const made = (await client.callTool({ name: "make_posts", arguments: { note_id: note.id } })) as { structuredContent: { master_id: string } };
  await waitForGeneration(user.key, made.structuredContent.master_id);
  return { user, client, masterId: made.structuredContent.master_id };
}

/** The host's page at 360×740 with the app framed in it, showing get_posts' answer. */
async function host(client: Client, masterId: string, colorScheme: "light" | "dark"): Promise<{ page: Page; app: FrameLocator; result: { structuredContent: { posts: Post[]; app_url: string } } }> {
  const tools = (await client.listTools()).tools as Tool[];
  const html = ((await client.readResource({ uri: POSTS_APP_URI })).contents[0] as { text: string }).text;
  const result = (await client.callTool({ name: "get_posts", arguments: { master_id: masterId } })) as { structuredContent: { posts: Post[]; app_url: string } };
  const context = await browser.newContext({ viewport: PHONE, colorScheme, deviceScaleFactor: 1 });
  // tsx keeps function names with a helper (__name) that the host's script, sent to the page, refers to.
  await context.addInitScript("globalThis.__name = (f) => f");
  const page = await context.newPage();
  page.on("pageerror", (err) => console.error(`host page: ${err.message}`));
  await page.exposeFunction("callServerTool", (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }));
  await page.setContent(HOST_PAGE);
  await page.evaluate(hostScript, { html, toolResult: result, theme: colorScheme, appToolNames: appTools(tools).map((t) => t.name) });
  const app = page.frameLocator("#app");
  await app.locator("article").first().waitFor();
  return { page, app, result };
}
type Post = { id: string; platform: string; content_hash: string; thread: { text: string; length: number; limit: number | null }[]; compose_url: string | null; approved: boolean };

describe("the posts app (MCP Apps)", () => {
  test("get_posts names the ui:// page; no client is offered a tool that approves", async () => {
    const user = await createTestUser();
    const apps = await connectMcp(user.key, "2026-07-28", { apps: true });
    const tools = (await apps.listTools()).tools as Tool[];
    assert.deepEqual(tools.find((t) => t.name === "get_posts")?._meta?.ui, { resourceUri: POSTS_APP_URI });
    assert.ok(!tools.some((t) => /approve/.test(t.name)), "no tool approves");
    assert.deepEqual(modelTools(tools).map((t) => t.name), tools.map((t) => t.name), "no app-only tool: the model sees every tool");
    const listed = (await apps.listResources()).resources.find((r) => r.uri === POSTS_APP_URI);
    assert.equal(listed?.mimeType, MCP_APP_MIME_TYPE);
    const read = (await apps.readResource({ uri: POSTS_APP_URI })).contents[0] as { mimeType: string; text: string; _meta?: { ui?: { csp?: unknown } } };
    assert.equal(read.mimeType, MCP_APP_MIME_TYPE);
    assert.equal(read.text, POSTS_APP_HTML, "the same static page for everyone: no one's data in it");
    assert.deepEqual(read._meta?.ui?.csp, { connectDomains: [], resourceDomains: [] }, "nothing loads from outside");
    assert.match(read.text, /Content-Security-Policy" content="default-src 'none'/);
    assert.doesNotMatch(read.text, /innerHTML|insertAdjacentHTML|document\.write|eval\(/);
    await apps.close();

    for (const plain of [await connectMcp(user.key, "2026-07-28"), await connectMcp(user.key, "2025-11-25", { apps: true })]) {
      assert.ok(!(await plain.listTools()).tools.some((t) => /approve/.test(t.name)), "no tool approves");
      await plain.close();
    }
    const notesOnly = await connectMcp((await createTestUser({ scopes: ["transcribe"] })).key);
    assert.equal((await notesOnly.listResources()).resources.some((r) => r.uri === POSTS_APP_URI), false);
    await notesOnly.close();
  });

  for (const revision of ["2026-07-28", "2025-11-25"] as const) {
    test(`${revision}: a client declaring the apps extension is not offered approve_post, and calling it is the protocol's unknown tool (issue 66)`, async () => {
      const { user, client: maker, masterId } = await personWithPosts();
      await maker.close();
      const client = await connectMcp(user.key, revision, { apps: true });
      try {
        assert.ok(!(await client.listTools()).tools.some((t) => t.name === "approve_post"));
        const { structuredContent } = (await client.callTool({ name: "get_posts", arguments: { master_id: masterId } })) as { structuredContent: { posts: Post[] } };
        const post = structuredContent.posts[0];
        const err = await client.callTool({ name: "approve_post", arguments: { post_id: post.id, content_hash: post.content_hash } }).then(() => null, (e: unknown) => e as { code?: number; message?: string });
        assert.equal(err?.code, -32602, `unknown tool: ${JSON.stringify(err)}`);
        assert.match(String(err?.message), /Tool approve_post not found/);
        assert.equal((await content.get(user.key, post.id)).body.item.approval.state, "awaiting_approval", "not approved");
      } finally {
        await client.close();
      }
    });
  }

  for (const colorScheme of ["light", "dark"] as const) {
    test(`in a host's frame (${colorScheme}): each post as the phone shows it; Open in X; Approve in Voicedraft opens the posts' page there`, async () => {
      const { user, client, masterId } = await personWithPosts();
      const { page, app, result } = await host(client, masterId, colorScheme);
      try {
        const posts = result.structuredContent.posts;
        const x = posts.find((p) => p.platform === "x")!;
        const linkedin = posts.find((p) => p.platform === "linkedin")!;
        assert.ok(x.thread.length > 1, "the long note is a thread on X");
        assert.ok(x.thread.every((part) => part.limit === 280 && part.length <= 280), "each post fits X, as X counts it");

        const xCard = app.locator(`article[data-post="${x.id}"]`);
        await xCard.getByText(`Post 1 of ${x.thread.length}`).waitFor();
        assert.equal(await xCard.locator(".part").count(), x.thread.length, "the thread post by post");
        assert.equal(await xCard.locator(".part .text").first().textContent(), x.thread[0].text);
        assert.equal(await xCard.locator(".count").first().textContent(), `${x.thread[0].length} / 280 characters`);
        assert.equal(await app.locator(`article[data-post="${linkedin.id}"] .count`).textContent(), `${linkedin.thread[0].length} / 3000 characters`);
        await page.screenshot({ path: path.join(SCREENSHOTS, `mcp-app-${colorScheme}.png`) });

        const opened = () => page.evaluate(() => (window as unknown as { openedLinks: string[] }).openedLinks);
        await xCard.getByRole("button", { name: "Open in X" }).click();
        await page.waitForFunction(() => (window as unknown as { openedLinks: string[] }).openedLinks.length > 0);
        assert.equal((await opened())[0], `https://x.com/intent/post?text=${encodeURIComponent(x.thread[0].text)}`, "X's own compose page, with the first post");

        await xCard.getByRole("button", { name: "Copy all" }).click();
        await xCard.getByRole("button", { name: "Copied" }).waitFor();

        // Approval is the person's, in Voicedraft: the button opens the posts' page there, and approves nothing.
        assert.equal(result.structuredContent.app_url, `http://localhost/content/${masterId}`);
        await xCard.getByRole("button", { name: "Approve in Voicedraft" }).click();
        await page.waitForFunction(() => (window as unknown as { openedLinks: string[] }).openedLinks.length > 1);
        assert.equal((await opened())[1], result.structuredContent.app_url);
        assert.equal((await content.get(user.key, x.id)).body.item.approval.state, "awaiting_approval", "nothing approved from the app");
        assert.equal(await xCard.getByRole("button", { name: /^Approve$/ }).count(), 0, "no button approves in the app");
        assert.deepEqual(await page.evaluate(() => (window as unknown as { refused: string[] }).refused), [], "the app calls only tools it may");
      } finally {
        await page.context().close();
        await client.close();
      }
    });
  }
});
