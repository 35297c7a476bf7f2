import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { POST as mcp } from "@/app/mcp/route.ts";
import { setUpContentTests } from "@/tests/api/content-support.ts";
import { createTestNote, createTestUser } from "@/tests/support/factories.ts";
import { answerWith } from "@/tests/support/node-bridge.ts";
import { NO_NEWER_NODE, newerNode } from "@/tests/support/newer-node.ts";
import { testDbKind } from "@/tests/support/database.ts";

// The MCP conformance suite (@modelcontextprotocol/conformance, its server scenarios, on Node 22+)
// against the MCP handler behind real HTTP, as an assistant configured with an API key reaches it
// (the key is added to each request, the suite's client sends none). Every scenario the suite lists
// is either run here and must pass, or named below with why it does not apply to this server; a
// scenario a newer suite adds fails the last test until it is sorted into one of the two.

const APPLIES = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "tools-list",
  "tools-call-error", // asks for a tool the server lacks: the answer is an error result the model can read
  "resources-list",
  "prompts-list",
  "dns-rebinding-protection",
];

const SUITE_TOOLS = "calls one of the suite's own test tools (test_*), which only its reference server has";
const DOES_NOT_APPLY: Record<string, string> = {
  "tools-call-simple-text": SUITE_TOOLS,
  "tools-call-image": SUITE_TOOLS,
  "tools-call-audio": SUITE_TOOLS,
  "tools-call-embedded-resource": SUITE_TOOLS,
  "tools-call-mixed-content": SUITE_TOOLS,
  "tools-call-with-logging": SUITE_TOOLS,
  "tools-call-with-progress": SUITE_TOOLS,
  "tools-call-sampling": `${SUITE_TOOLS}; no tool here asks the client's model (sampling)`,
  "tools-call-elicitation": `${SUITE_TOOLS}; no tool here asks the person through the client (elicitation)`,
  "elicitation-sep1034-defaults": "no tool here asks the person through the client (elicitation)",
  "elicitation-sep1330-enums": "no tool here asks the person through the client (elicitation)",
  "json-schema-2020-12": SUITE_TOOLS,
  "completion-complete": "completes an argument of the suite's own test prompt; no prompt or template here offers completions",
  "resources-read-text": "reads the suite's test:// resources; note://{id} is read in tests/api/mcp.test.ts",
  "resources-read-binary": "reads the suite's test:// resources",
  "resources-templates-read": "reads the suite's test:// template; note://{id} is read in tests/api/mcp.test.ts",
  "server-sse-polling": "resumes a session's event stream (SEP-1699); this server is stateless: no session, no stream to resume",
  "server-sse-multiple-streams": "streams within a session (SEP-1699); this server is stateless and answers each POST with JSON",
  "resources-subscribe": "a stateless server keeps no subscriptions (resources.subscribe is not offered)",
  "resources-unsubscribe": "a stateless server keeps no subscriptions (resources.subscribe is not offered)",
  "prompts-get-simple": "gets the suite's own test prompts; weekly_review and draft_post are got in tests/api/mcp.test.ts",
  "prompts-get-with-args": "gets the suite's own test prompts",
  "prompts-get-embedded-resource": "gets the suite's own test prompts",
  "prompts-get-with-image": "gets the suite's own test prompts",
};

const CLI = "node_modules/@modelcontextprotocol/conformance/dist/index.js";
const node = newerNode();
const run = (args: string[]) => promisify(execFile)(node!, [CLI, ...args], { timeout: 60_000, maxBuffer: 8 << 20 });

setUpContentTests({ workers: false });

// The protocol does not depend on the database: once, in the PGlite pass.
const skip = !node ? NO_NEWER_NODE : testDbKind === "postgres" ? "database-independent; runs in the PGlite pass" : false;

describe("the MCP conformance suite", { skip }, () => {
  let server: http.Server;
  let url: string;
  before(async () => {
    const user = await createTestUser();
    await createTestNote(user, "We ship the new editor on Friday. I need to send the release notes to Maria.");
    server = http.createServer((incoming, outgoing) => {
      answerWith(mcp, incoming, outgoing, { authorization: `Bearer ${user.key}` }).catch(() => outgoing.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://localhost:${(server.address() as { port: number }).port}/mcp`;
  });
  after(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  for (const scenario of APPLIES) {
    test(scenario, async () => {
      // The CLI exits 1 on any failure or warning; its checks are printed either way.
      const result = await run(["server", "--url", url, "--scenario", scenario, "--spec-version", "2025-11-25"]).catch((err: { stdout: string; stderr: string }) => ({ ...err, failed: true }));
      const output = `${result.stdout}\n${result.stderr}`;
      assert.ok(!("failed" in result), `${scenario} failed:\n${output}`);
      assert.match(output, /SUCCESS/, `${scenario} ran no check:\n${output}`);
      assert.doesNotMatch(output, /FAILURE|WARNING/, output);
    });
  }

  test("every server scenario of the suite is run above or said not to apply", async () => {
    const { stdout } = await run(["list", "--server", "--spec-version", "2025-11-25"]);
    const listed = stdout.split("\n").flatMap((line) => /^\s+- (\S+)/.exec(line)?.[1] ?? []);
    assert.ok(listed.length >= APPLIES.length, stdout);
    const unsorted = listed.filter((name) => !APPLIES.includes(name) && !(name in DOES_NOT_APPLY));
    assert.deepEqual(unsorted, [], "scenarios the suite has that this test neither runs nor explains");
  });
});
