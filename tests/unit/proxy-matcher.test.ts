import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { test } from "node:test";

// Which requests proxy.ts sees, by Next's own matcher (its documented test helper). Next buffers the
// body of every request the proxy sees and cuts it at 10 MB: an MCP call carrying a recording
// (transcribe_audio, up to 25 MiB) was cut to a -32700 Parse error (issue 60).

// What Next's server runtime provides before its modules load; the helper loads them.
(globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;
const { unstable_doesMiddlewareMatch } = await import("next/experimental/testing/server");
const { config } = await import("@/proxy.ts");

const sees = (url: string, headers: Record<string, string> = {}) => unstable_doesMiddlewareMatch({ config, url, headers: { ...headers } });

test("uploads and MCP calls (a body) stay out of the proxy; the same paths without a body, and other paths, come in", () => {
  for (const url of ["/mcp", "/transcribe", "/v1/audio/transcriptions"]) {
    assert.equal(sees(url, { "content-type": "application/json" }), false, url);
    assert.equal(sees(url), true, `${url} without a body: a wrong method still gets the API's 405`);
  }
  assert.equal(sees("/mcpx", { "content-type": "application/json" }), true);
  assert.equal(sees("/api/v1/dictionary", { "content-type": "application/json" }), true);
  assert.equal(sees("/_next/static/chunk.js"), false);
});
