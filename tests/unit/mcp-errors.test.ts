import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "@/lib/http/errors.ts";
import { protocolError, toolRefusal } from "@/lib/mcp/errors.ts";

// An MCP tool's, resource's or prompt's failure as the assistant reads it (lib/mcp/errors.ts): the
// API's error as it is; anything else the API's generic internal_error, never its own message.

process.env.LOG_LEVEL ??= "silent";

const prismaError = Object.assign(new Error("Invalid `prisma.note.findFirst()` invocation: invalid byte sequence for encoding \"UTF8\": 0x00 (22021)"), { code: "P2010" });

test("an unknown failure: internal_error, the generic message and the request id; nothing of the failure itself", () => {
  const refusal = toolRefusal(prismaError, "req-1");
  assert.equal(refusal.isError, true);
  assert.deepEqual(JSON.parse(refusal.content[0].text), {
    error: { code: "internal_error", message: "Something went wrong on our side; the request id helps us find it.", request_id: "req-1" },
  });
  const error = protocolError(prismaError, "req-2");
  assert.equal(error.code, -32603);
  assert.equal(error.message, "Something went wrong on our side; the request id helps us find it.");
  assert.deepEqual(error.data, { error: { code: "internal_error", message: error.message, request_id: "req-2" } });
  assert.doesNotMatch(JSON.stringify({ refusal, error: { ...error, message: error.message } }), /prisma|22021/);
});

test("the database's absence: database_unavailable, as the API answers it", () => {
  const refusal = toolRefusal(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }), "req-3");
  assert.equal(JSON.parse(refusal.content[0].text).error.code, "database_unavailable");
});

test("the API's errors keep their code, message and details; the JSON-RPC code follows the status", () => {
  const invalid = new ApiError("validation_failed", "The argument id is bad.", { details: [{ path: "id", message: "bad" }] });
  assert.deepEqual(JSON.parse(toolRefusal(invalid, "r").content[0].text).error, { code: "validation_failed", message: "The argument id is bad.", request_id: "r", details: [{ path: "id", message: "bad" }] });
  assert.equal(protocolError(invalid, "r").code, -32602);
  // 2026-07-28 replaced 2025's -32002 by -32602, and the SDK answers it on every revision.
  assert.equal(protocolError(new ApiError("not_found", "The note x was not found."), "r").code, -32602);
  assert.equal(protocolError(new ApiError("insufficient_scope", "No."), "r").code, -32602);
  assert.equal(protocolError(new ApiError("engine_failed", "The engine failed."), "r").code, -32603);
});
