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
// (the key is added to each request, the suite's client sends none), for both revisions /mcp
// speaks: 2025-11-25 (initialize) and 2026-07-28 (stateless, server/discover). Every server
// scenario a revision's requirement set lists (scored or not) is either run here, each of its
// checks passing, or named below with why it does not apply to this server; a scenario a newer
// suite adds fails the last test of its revision until it is sorted into one of the two.

const SUITE_TOOLS = "calls one of the suite's own test tools (test_*), which only its reference server has";
const SUITE_PROMPTS = "gets the suite's own test prompts; weekly_review and draft_post are got in tests/api/mcp.test.ts";
const SUITE_RESOURCES = "reads the suite's test:// resources; note://{id} is read in tests/api/mcp.test.ts";
const NO_COMPLETION = "completes an argument of the suite's own test prompt; no prompt or template here offers completions";
const NO_INPUT = `${SUITE_TOOLS}; no tool here asks the client for input (elicitation, sampling, roots)`;
const NO_SUBSCRIPTIONS = "a stateless server keeps no subscriptions (resources.subscribe is not offered)";

const NOT_SHARED = {
  "tools-call-simple-text": SUITE_TOOLS,
  "tools-call-image": SUITE_TOOLS,
  "tools-call-audio": SUITE_TOOLS,
  "tools-call-embedded-resource": SUITE_TOOLS,
  "tools-call-mixed-content": SUITE_TOOLS,
  "tools-call-with-progress": SUITE_TOOLS,
  // Since suite 0.2 it calls the suite's test_error_handling; a tool's refusal is tested in tests/api/mcp-limits.test.ts.
  "tools-call-error": SUITE_TOOLS,
  "json-schema-2020-12": SUITE_TOOLS,
  "completion-complete": NO_COMPLETION,
  "resources-read-text": SUITE_RESOURCES,
  "resources-read-binary": SUITE_RESOURCES,
  "resources-templates-read": SUITE_RESOURCES,
  "prompts-get-simple": SUITE_PROMPTS,
  "prompts-get-with-args": SUITE_PROMPTS,
  "prompts-get-embedded-resource": SUITE_PROMPTS,
  "prompts-get-with-image": SUITE_PROMPTS,
};

type Revision = {
  applies: string[];
  doesNotApply: Record<string, string>;
  /** Checks of an applying scenario that need the suite's own diagnostic tools: they may fail, and only so. */
  untestable?: Record<string, string>;
};

const TASKS = "tasks are an extension this server does not offer: no tool here runs longer than its request";
const REVISIONS: Record<"2025-11-25" | "2026-07-28", Revision> = {
  "2025-11-25": {
    applies: ["server-initialize", "ping", "logging-set-level", "tools-list", "resources-list", "prompts-list", "dns-rebinding-protection"],
    doesNotApply: {
      ...NOT_SHARED,
      "tools-call-with-logging": SUITE_TOOLS,
      "tools-call-sampling": NO_INPUT,
      "tools-call-elicitation": NO_INPUT,
      "elicitation-sep1034-defaults": NO_INPUT,
      "elicitation-sep1330-enums": NO_INPUT,
      "server-sse-polling": "resumes a session's event stream (SEP-1699); this server is stateless: no session, no stream to resume",
      "server-sse-multiple-streams": "streams within a session (SEP-1699); this server is stateless and answers each POST with JSON",
      "server-session-lifecycle": "a session's lifecycle (its id, its DELETE); this server is stateless: it issues no session id",
      "resources-subscribe": NO_SUBSCRIPTIONS,
      "resources-unsubscribe": NO_SUBSCRIPTIONS,
    },
  },
  "2026-07-28": {
    applies: [
      "server-stateless",
      "tools-list",
      "resources-list",
      "prompts-list",
      "sep-2164-resource-not-found",
      "caching",
      "dns-rebinding-protection",
      "server-sse-multiple-streams",
      "http-header-validation", // pending in the suite, and what Mcp-Method/Mcp-Name must be checked for
      "input-required-result-unsupported-methods",
      "input-required-result-validate-input",
    ],
    untestable: {
      "sep-2575-server-rejects-undeclared-capability": "needs the suite's test_missing_capability tool; no method or tool here needs a client capability",
      "sep-2575-missing-capability-http-400": "needs the suite's test_missing_capability tool",
      "sep-2575-http-server-no-independent-requests-on-stream": "needs the suite's test_streaming_elicitation tool; no tool here streams or asks the client",
      "sep-2575-server-no-log-without-loglevel": "needs the suite's test_logging_tool; no tool here logs to the client",
    },
    doesNotApply: {
      ...NOT_SHARED,
      "input-required-result-basic-elicitation": NO_INPUT,
      "input-required-result-basic-sampling": NO_INPUT,
      "input-required-result-basic-list-roots": NO_INPUT,
      "input-required-result-request-state": NO_INPUT,
      "input-required-result-multiple-input-requests": NO_INPUT,
      "input-required-result-multi-round": NO_INPUT,
      "input-required-result-missing-input-response": NO_INPUT,
      "input-required-result-non-tool-request": "gets the suite's own test prompt that asks for input; no prompt here does",
      "input-required-result-result-type": NO_INPUT,
      "input-required-result-tampered-state": NO_INPUT,
      "input-required-result-capability-check": NO_INPUT,
      "input-required-result-ignore-extra-params": NO_INPUT,
      "http-custom-header-server-validation": "needs a tool whose parameters are mirrored into Mcp-Param-* headers (x-mcp-header); no tool here has one",
      "tasks-lifecycle": TASKS,
      "tasks-capability-negotiation": TASKS,
      "tasks-wire-fields": TASKS,
      "tasks-request-state-removal": TASKS,
      "tasks-mrtr-input": TASKS,
      "tasks-request-headers": TASKS,
      "tasks-dispatch-and-envelope": TASKS,
      "tasks-status-notifications": TASKS,
      "tasks-required-task-error": TASKS,
      "tasks-mrtr-composition": TASKS,
    },
  },
};

const CLI = "node_modules/@modelcontextprotocol/conformance/dist/index.js";
const node = newerNode();
const run = (args: string[]) => promisify(execFile)(node!, [CLI, ...args], { timeout: 60_000, maxBuffer: 8 << 20 });

type Check = { id: string; status: string; errorMessage?: string };

/** The checks a scenario ran, from the CLI's --verbose JSON (it exits 1 on any failure; they are printed either way). */
async function checksOf(url: string, scenario: string, revision: string): Promise<{ checks: Check[]; output: string }> {
  const result = await run(["server", "--url", url, "--scenario", scenario, "--spec-version", revision, "--verbose"]).catch((err: { stdout: string; stderr: string }) => err);
  const output = `${result.stdout}\n${result.stderr}`;
  const start = result.stdout.indexOf("\n[");
  const end = result.stdout.indexOf("\n]", start);
  assert.ok(start >= 0 && end > start, `${scenario} printed no checks:\n${output}`);
  return { checks: JSON.parse(result.stdout.slice(start + 1, end + 2)) as Check[], output };
}

/** The server scenarios a revision's requirement set lists: required ones, and those run but not scored. */
function serverScenarios(listing: string): string[] {
  const lines = listing.split("\n");
  const start = lines.findIndex((line) => line.startsWith("Server scenarios"));
  const required = lines.slice(start + 1, lines.findIndex((line, i) => i > start && !line.trim())).flatMap((line) => /^\s+- (\S+)$/.exec(line)?.[1] ?? []);
  const unscored = lines.flatMap((line) => /^\s+- (\S+) \[server\]$/.exec(line)?.[1] ?? []);
  return [...required, ...unscored];
}

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

  for (const [revision, { applies, doesNotApply, untestable = {} }] of Object.entries(REVISIONS)) {
    describe(revision, () => {
      for (const scenario of applies) {
        test(scenario, async () => {
          const { checks, output } = await checksOf(url, scenario, revision);
          assert.ok(checks.some((c) => c.status === "SUCCESS"), `${scenario} ran no check:\n${output}`);
          const failed = checks.filter((c) => !["SUCCESS", "INFO", "SKIPPED"].includes(c.status) && !(c.id in untestable && /^Not testable/.test(c.errorMessage ?? "")));
          assert.deepEqual(failed, [], output);
        });
      }

      test("every server scenario the revision requires is run above or said not to apply", async () => {
        const { stdout } = await run(["list", "--server", "--requirements", revision]);
        const listed = serverScenarios(stdout);
        assert.ok(listed.length >= applies.length, stdout);
        const unsorted = listed.filter((name) => !applies.includes(name) && !(name in doesNotApply));
        assert.deepEqual(unsorted, [], "scenarios the suite has that this test neither runs nor explains");
        const stale = [...applies, ...Object.keys(doesNotApply)].filter((name) => !listed.includes(name));
        assert.deepEqual(stale, [], "scenarios named here that the revision no longer lists");
      });
    });
  }
});
