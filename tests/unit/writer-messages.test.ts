// Issue 69 item 4: what the writer tells a person (a post card, a rewrite, a clean-up, Ask) is plain
// words: no ISO times, token counts, status codes, error names, addresses or settings. Every reason
// the writer gives is produced here from the errors it meets, for a writer server and for the model
// on this machine, and read as a person would.
import assert from "node:assert/strict";
import { test } from "node:test";
import { APICallError, NoObjectGeneratedError } from "ai";
import { withEnv } from "@/tests/support/env.ts";
import { failureReasons, resetWriterState } from "@/lib/writer/writer.ts";
import { CircuitBreaker } from "@/lib/writer/circuit-breaker.ts";
import { noWriterReason } from "@/lib/writer/providers.ts";

const MACHINE_TALK: [string, RegExp][] = [
  ["an ISO time", /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/],
  ["a token count", /\d+\s*tokens?\b/i],
  ["an error code", /\bE[A-Z]{4,}\b|\b(?:ECONNREFUSED|ENOTFOUND|ETIMEDOUT)\b/],
  ["an HTTP status", /\b[1-5]\d\d\b/],
  ["an address", /https?:\/\/|localhost|\d+\.\d+\.\d+\.\d+/i],
  ["a setting", /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/],
  ["an error's name", /\b\w*(?:Error|Exception)\b|fetch failed/],
];

function assertPlain(message: string) {
  for (const [what, pattern] of MACHINE_TALK) assert.doesNotMatch(message, pattern, `${what} in “${message}”`);
}

const apiError = (statusCode: number) =>
  new APICallError({ message: `Request failed with status ${statusCode}`, url: "http://writer.internal:8080/v1/chat/completions", requestBodyValues: {}, statusCode, responseHeaders: {} });
const connectionRefused = Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8080"), { code: "ECONNREFUSED" }) });
const timeout = Object.assign(new Error("The operation was aborted due to timeout"), { name: "TimeoutError" });
const malformed = new NoObjectGeneratedError({ message: "No object generated", text: "{", response: { id: "x", timestamp: new Date(), modelId: "m" }, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, finishReason: "stop" });
const ERRORS = [apiError(401), apiError(403), apiError(404), apiError(429), apiError(503), apiError(400), connectionRefused, timeout, malformed, new Error("ENOTFOUND writer.internal")];

test("a writer server's failures, as a person reads them", () =>
  withEnv({ WRITER_BASE_URL: "http://user:secret@writer.internal:8080/v1", WRITER_MODEL: "stand-in-7b", WRITER_API_KEY: "sk-x" }, async () => {
    resetWriterState();
    const reasons = failureReasons(ERRORS);
    assert.equal(reasons.length, ERRORS.length);
    for (const reason of reasons) assertPlain(reason);
    assert.ok(reasons.some((r) => /could not be reached/.test(r)));
  })());

test("the breaker's reason says what happened, without its time or the error's details", () => {
  let now = Date.parse("2026-12-07T01:51:02.076Z");
  const breaker = new CircuitBreaker(() => 30_000, () => now);
  breaker.failed("the writer could not be reached", { down: true });
  const skipping = breaker.skipping();
  assert.ok(skipping);
  assertPlain(skipping);
  now += 60_000;
  assert.equal(breaker.skipping(), null);
});

test("no writer set up: said in words, for each way the model on this machine can be missing", () =>
  withEnv({ WRITER_LOCAL: "off" }, async () => {
    const reason = noWriterReason();
    assert.ok(reason);
    assertPlain(reason);
    assert.match(reason, /^no writer is set up, and the model on this machine is turned off$/);
  })());

test("the check can fail: machine talk is found", () => {
  assert.throws(() => assertPlain("the writer is skipped until 2026-12-07T01:51:02.076Z after: ECONNREFUSED"));
  assert.throws(() => assertPlain("1296 tokens and 1024 to answer"));
  assert.throws(() => assertPlain("no writer is set up (WRITER_BASE_URL)"));
});
