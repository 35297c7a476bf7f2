import type { McpServer } from "@modelcontextprotocol/server";

// An MCP App (the io.modelcontextprotocol/ui extension): get_posts names a ui:// page that a host
// which renders apps shows beside its answer: each post as the phone shows it, its platform, its
// length as the platform counts it (a thread post by post), Copy, the platform's own compose page
// ("Open in X", through the host: ui/open-link) and "Approve in Voicedraft", which opens the posts'
// page in Voicedraft's own app (get_posts' app_url), where the person approves. The page calls no
// tool: approval is a person's word, and a tool the page could call is one the client, and a model
// steered by what it reads, could call too (issue 66). The page is static: it holds no one's
// data, which reaches it only as the tool's result through the host (ui/notifications/tool-result),
// and is shown with textContent, never as HTML, so a post's text cannot run as script in the host.

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
  :root { color-scheme: light dark; --text: #1c1b1f; --muted: #5f5b66; --line: #cac4d0; --card: #ffffff; --accent: #4f378b; --on-accent: #ffffff; --over: #b3261e; --ok: #1b6b3a; }
  @media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { --text: #e6e1e5; --muted: #cac4d0; --line: #49454f; --card: #1d1b20; --accent: #d0bcff; --on-accent: #381e72; --over: #f2b8b5; --ok: #8fd8a8; } }
  :root[data-theme="dark"] { --text: #e6e1e5; --muted: #cac4d0; --line: #49454f; --card: #1d1b20; --accent: #d0bcff; --on-accent: #381e72; --over: #f2b8b5; --ok: #8fd8a8; }
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0; padding: 12px; color: var(--text); background: transparent; }
  article { background: var(--card); border: 1px solid var(--line); border-radius: 14px; padding: 14px; margin: 0 0 12px; }
  header { display: flex; align-items: baseline; justify-content: space-between; gap: 8px; margin: 0 0 8px; }
  h2 { font-size: 15px; margin: 0; }
  .channel { font-weight: normal; color: var(--muted); }
  .state { font-size: 13px; color: var(--muted); white-space: nowrap; }
  .state.approved { color: var(--ok); font-weight: 600; }
  .part { border-top: 1px solid var(--line); padding: 8px 0 0; margin: 8px 0 0; }
  .part:first-of-type { border-top: 0; padding-top: 0; margin-top: 0; }
  .text { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
  .meta { display: flex; justify-content: space-between; align-items: center; gap: 8px; font-size: 13px; color: var(--muted); margin: 4px 0 0; }
  .count.over { color: var(--over); font-weight: 600; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0 0; }
  button { font: inherit; font-size: 14px; min-height: 44px; padding: 0 16px; border-radius: 22px; border: 1px solid var(--line); background: transparent; color: var(--accent); cursor: pointer; }
  button.primary { background: var(--accent); border-color: var(--accent); color: var(--on-accent); font-weight: 600; }
  button.small { min-height: 36px; padding: 0 12px; font-size: 13px; }
  button:disabled { opacity: .6; cursor: default; }
  .note { font-size: 13px; color: var(--muted); margin: 8px 0 0; }
  .hint { font-size: 13px; color: var(--muted); margin: 0; }
</style>
</head>
<body>
<main id="posts"><p class="hint">Waiting for the posts…</p></main>
<p class="hint" id="footer">Nothing is posted for you: copy a post, or open the platform, and post it yourself.</p>
<script>
(() => {
  const main = document.getElementById("posts");
  let nextId = 1;
  const pending = new Map();
  const send = (message) => window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  /** A request to the host; resolves with its result, rejects with its error. */
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ id, method, params });
  });
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const button = (label, className, onClick) => {
    const node = el("button", className, label);
    node.type = "button";
    node.addEventListener("click", () => onClick(node));
    return node;
  };
  const stateOf = (post) => post.writing ? "Being written" : post.approved ? "Approved" : post.freshness === "stale" ? "Out of date" : "Waiting for your approval";
  async function copy(text, node) {
    const label = node.textContent;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // A frame without clipboard access: the selection, copied the old way.
      const area = el("textarea");
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    node.textContent = "Copied";
    setTimeout(() => (node.textContent = label), 1500);
  }
  function renderPost(post, appUrl) {
    const card = el("article");
    card.dataset.post = post.id;
    const header = el("header");
    const title = el("h2", "", String(post.platform_label || "Post"));
    if (post.channel_name && post.channel_name !== post.platform_label) title.append(el("span", "channel", " · " + post.channel_name));
    header.append(title, el("span", "state" + (post.approved ? " approved" : ""), stateOf(post)));
    card.append(header);
    const thread = Array.isArray(post.thread) && post.thread.length ? post.thread : [{ text: String(post.text || ""), length: null, limit: null }];
    thread.forEach((part, i) => {
      const block = el("section", "part");
      block.append(el("p", "text", String(part.text || "")));
      const meta = el("div", "meta");
      meta.append(el("span", "", thread.length > 1 ? "Post " + (i + 1) + " of " + thread.length : ""));
      if (typeof part.length === "number") {
        const over = typeof part.limit === "number" && part.length > part.limit;
        meta.append(el("span", "count" + (over ? " over" : ""), part.length + (typeof part.limit === "number" ? " / " + part.limit : "") + " characters"));
      }
      if (thread.length > 1) meta.append(button("Copy", "small", (node) => copy(String(part.text || ""), node)));
      block.append(meta);
      card.append(block);
    });
    if (!post.writing) {
      const actions = el("div", "actions");
      if (!post.approved && appUrl) actions.append(button("Approve in Voicedraft", "primary", () => request("ui/open-link", { url: appUrl }).catch(() => undefined)));
      actions.append(button(thread.length > 1 ? "Copy all" : "Copy", "", (node) => copy(thread.map((p) => p.text).join("\\n\\n"), node)));
      if (post.compose_url) actions.append(button("Open in " + (post.platform_label || "the app"), "", () => request("ui/open-link", { url: post.compose_url }).catch(() => undefined)));
      card.append(actions);
    }
    return card;
  }
  function render(result) {
    const family = (result && result.structuredContent) || {};
    const posts = family.posts || [];
    const appUrl = typeof family.app_url === "string" && (family.app_url.startsWith("https://") || family.app_url.startsWith("http://")) ? family.app_url : null;
    main.replaceChildren();
    if (!posts.length) {
      main.append(el("p", "hint", result && result.isError ? "The posts could not be read." : "No posts yet."));
    } else {
      for (const post of posts) main.append(renderPost(post, appUrl));
    }
    send({ method: "ui/notifications/size-changed", params: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight } });
  }
  const theme = (context) => {
    if (context && (context.theme === "light" || context.theme === "dark")) document.documentElement.dataset.theme = context.theme;
  };
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== "2.0") return;
    if (message.id !== undefined && pending.has(message.id) && !message.method) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error.message || "error"));
      else resolve(message.result);
      return;
    }
    if (message.method === "ui/notifications/tool-result") render(message.params);
    if (message.method === "ui/notifications/host-context-changed") theme(message.params);
  });
  request("ui/initialize", { appInfo: { name: "voicedraft-posts", version: "1.1.0" }, appCapabilities: {}, protocolVersion: "${APPS_PROTOCOL_VERSION}" })
    .then((result) => {
      theme(result && result.hostContext);
      send({ method: "ui/notifications/initialized" });
    })
    .catch(() => undefined);
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
    { title: "Posts from a note", description: "An MCP App: the posts get_posts answers, as the phone shows them (length, thread, Copy, Open in X, Approve in Voicedraft).", mimeType: MCP_APP_MIME_TYPE },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: MCP_APP_MIME_TYPE, text: POSTS_APP_HTML, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: false } } }],
    }),
  );
}
