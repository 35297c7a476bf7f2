import assert from "node:assert/strict";
import { describe, test } from "node:test";
import vm from "node:vm";
import { MCP_APP_MIME_TYPE, POSTS_APP_HTML, POSTS_APP_URI } from "@/lib/mcp/posts-app.ts";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { connectMcp } from "@/tests/support/mcp-client.ts";

// Issue 59, item 5: an MCP App. get_posts names a ui:// page (text/html;profile=mcp-app) that a
// host renders with the tool's result; the page holds no one's data and shows a post's text as
// text. No tool approves: a tool's app-only visibility is the host's to keep, not this server's.

setUpTestDatabase();

type Node = { tag: string; className?: string; textContent: string; children: Node[]; append: (...n: Node[]) => void; replaceChildren: () => void };
const element = (tag: string): Node => {
  const node: Node = {
    tag,
    textContent: "",
    children: [],
    append: (...more) => void node.children.push(...more),
    replaceChildren: () => void (node.children = []),
  };
  return node;
};

/** The page's script in a stand-in browser whose parent is a host: what it sends, and what it shows. */
function runPage() {
  const script = /<script>([\s\S]*)<\/script>/.exec(POSTS_APP_HTML)![1];
  const sent: Record<string, unknown>[] = [];
  const listeners: ((event: { source: unknown; data: unknown }) => void)[] = [];
  const main = element("main");
  const parent = { postMessage: (message: Record<string, unknown>) => sent.push(message) };
  const window = { parent, addEventListener: (_: string, listener: (typeof listeners)[number]) => listeners.push(listener) };
  vm.runInNewContext(script, { window, document: { getElementById: () => main, createElement: element } });
  const receive = (data: unknown, source: unknown = parent) => listeners.forEach((listener) => listener({ source, data }));
  return { sent, receive, main };
}

describe("the posts app (MCP Apps)", () => {
  test("get_posts names the ui:// page; it is listed and read as an MCP App for a key that reads posts, and not otherwise", async () => {
    const user = await createTestUser();
    const client = await connectMcp(user.key);
    const tool = (await client.listTools()).tools.find((t) => t.name === "get_posts")!;
    assert.deepEqual(tool._meta?.ui, { resourceUri: POSTS_APP_URI });
    assert.ok(!(await client.listTools()).tools.some((t) => /approve/.test(t.name)), "no tool approves");
    const listed = (await client.listResources()).resources.find((r) => r.uri === POSTS_APP_URI);
    assert.equal(listed?.mimeType, MCP_APP_MIME_TYPE);
    const read = (await client.readResource({ uri: POSTS_APP_URI })).contents[0] as { mimeType: string; text: string };
    assert.equal(read.mimeType, MCP_APP_MIME_TYPE);
    assert.equal(read.text, POSTS_APP_HTML, "the same static page for everyone: no one's data in it");
    assert.match(read.text, /Content-Security-Policy" content="default-src 'none'/);
    assert.doesNotMatch(read.text, /innerHTML|insertAdjacentHTML|document\.write|eval\(/);
    await client.close();

    const notesOnly = await connectMcp((await createTestUser({ scopes: ["transcribe"] })).key);
    assert.equal((await notesOnly.listResources()).resources.some((r) => r.uri === POSTS_APP_URI), false);
    await notesOnly.close();
  });

  test("the page says hello to its host, then shows the tool's posts as text, markup and all", async () => {
    const { sent, receive, main } = runPage();
    assert.equal(sent[0].method, "ui/initialize");
    assert.equal((sent[0].params as { protocolVersion: string }).protocolVersion, "2026-01-26");
    receive({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2026-01-26", hostInfo: { name: "host", version: "1" }, hostCapabilities: {}, hostContext: {} } });
    assert.equal(sent[1].method, "ui/notifications/initialized");

    const posts = [
      { id: "p1", channel_id: "c1", title: "LinkedIn", text: "We ship on <b>Friday</b><script>alert(1)</script>", writing: false, approved: false, freshness: "fresh" },
      { id: "p2", channel_id: "c2", title: null, text: "", writing: true, approved: false, freshness: null },
    ];
    receive({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { content: [], structuredContent: { posts } } }, { someone: "else" });
    assert.equal(main.children.length, 0, "a message from anyone but the host is ignored");
    receive({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { content: [], structuredContent: { posts } } });
    assert.equal(main.children.length, 2);
    const [first, second] = main.children;
    assert.equal(first.children[1].textContent, posts[0].text, "the text as text, never as HTML");
    assert.match(first.children[0].textContent + first.children[0].children[0].textContent, /LinkedIn.*waiting for your approval/);
    assert.match(second.children[0].children[0].textContent, /being written/);

    receive({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { isError: true, content: [] } });
    assert.equal(main.children[0].textContent, "The posts could not be read.");
  });
});
