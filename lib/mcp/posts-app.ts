import type { McpServer } from "@modelcontextprotocol/server";

// An MCP App (the io.modelcontextprotocol/ui extension): get_posts names a ui:// page that a host
// which renders apps shows beside its answer, the posts of a note as cards (channel, state, text).
// The page is static: it holds no one's data, which reaches it only as the tool's result through
// the host (ui/notifications/tool-result), and is shown with textContent, never as HTML, so a
// post's text cannot run as script in the host. It reads only: approving stays the person's act
// in the app, by the post's content hash. An app-only "approve" tool is not offered because a
// tool's visibility (["app"]) is kept by the host, not by this server: any client holding
// content:write could call it, model or not.

export const POSTS_APP_URI = "ui://voicedraft/posts.html";
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";
export const MCP_APPS_EXTENSION = "io.modelcontextprotocol/ui";
/** The apps protocol revision the page speaks (ext-apps' LATEST_PROTOCOL_VERSION). */
const APPS_PROTOCOL_VERSION = "2026-01-26";

export const POSTS_APP_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Posts from a note</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0; padding: 12px; color: #1c1b1f; background: transparent; }
  @media (prefers-color-scheme: dark) { body { color: #e6e1e5; } article { border-color: #49454f; } }
  article { border: 1px solid #cac4d0; border-radius: 12px; padding: 12px; margin: 0 0 10px; }
  h2 { font-size: 13px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: .04em; }
  .state { font-weight: normal; opacity: .75; }
  p { margin: 0; white-space: pre-wrap; }
  .hint { font-size: 13px; opacity: .75; }
</style>
</head>
<body>
<main id="posts"><p class="hint">Waiting for the posts…</p></main>
<p class="hint">Approve and share a post from the Voicedraft app on your phone.</p>
<script>
(() => {
  const main = document.getElementById("posts");
  const send = (message) => window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const stateOf = (post) => post.writing ? "being written" : post.approved ? "approved" : post.freshness === "stale" ? "out of date" : "waiting for your approval";
  function render(result) {
    const posts = (result && result.structuredContent && result.structuredContent.posts) || [];
    main.replaceChildren();
    if (!posts.length) {
      const none = document.createElement("p");
      none.className = "hint";
      none.textContent = result && result.isError ? "The posts could not be read." : "No posts yet.";
      main.append(none);
      return;
    }
    for (const post of posts) {
      const card = document.createElement("article");
      const title = document.createElement("h2");
      title.textContent = String(post.title || post.channel_id || "Post") + " ";
      const state = document.createElement("span");
      state.className = "state";
      state.textContent = "· " + stateOf(post);
      title.append(state);
      const text = document.createElement("p");
      text.textContent = String(post.text || "");
      card.append(title, text);
      main.append(card);
    }
  }
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== "2.0") return;
    if (message.id === 1 && message.result) send({ method: "ui/notifications/initialized" });
    if (message.method === "ui/notifications/tool-result") render(message.params);
  });
  send({ id: 1, method: "ui/initialize", params: { appInfo: { name: "voicedraft-posts", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "${APPS_PROTOCOL_VERSION}" } });
})();
</script>
</body>
</html>
`;

/** The page, for a caller who may read posts. */
export function registerPostsApp(server: McpServer, { scopes }: { scopes: readonly string[] }): void {
  if (!scopes.includes("content:read")) return;
  server.registerResource(
    "posts-app",
    POSTS_APP_URI,
    { title: "Posts from a note", description: "An MCP App: the posts get_posts answers, shown as cards with their state.", mimeType: MCP_APP_MIME_TYPE },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: MCP_APP_MIME_TYPE, text: POSTS_APP_HTML, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: false } } }],
    }),
  );
}
