import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "@/lib/http/errors.ts";
import { UpstreamEngineError } from "@/lib/transcription/recognizers/openai.ts";
import { EngineBusyError, EngineUnavailableError } from "@/lib/transcription/recognizers/types.ts";

// Next bundles lib/ more than once into one server process, and what the process shares (the
// recognizer, its queues) is made by one copy (lib/brand.ts): an error of another copy's class is
// still recognized. A second copy of each module is loaded here as Next would hold it: the same
// file under another URL.

async function secondCopy<T>(file: string): Promise<T> {
  return (await import(`${new URL(`../../${file}`, import.meta.url).href}?second-copy`)) as T;
}

test("an error made by another copy of its class is an instance of this one's, and of no other", async () => {
  const errors = await secondCopy<typeof import("@/lib/http/errors.ts")>("lib/http/errors.ts");
  const recognizers = await secondCopy<typeof import("@/lib/transcription/recognizers/types.ts")>("lib/transcription/recognizers/types.ts");
  assert.notEqual(recognizers.EngineBusyError, EngineBusyError, "two copies of the module");
  const busy = new recognizers.EngineBusyError("The recognizer is busy with other recordings; try again shortly.", 2);
  assert.ok(busy instanceof EngineBusyError);
  assert.equal(busy.retryAfterSeconds, 2);
  assert.ok(!(busy instanceof EngineUnavailableError));
  assert.ok(!(busy instanceof ApiError));
  assert.ok(new recognizers.EngineUnavailableError("no model") instanceof EngineUnavailableError);
  const upstream = await secondCopy<typeof import("@/lib/transcription/recognizers/openai.ts")>("lib/transcription/recognizers/openai.ts");
  assert.ok(new upstream.UpstreamEngineError("502 from the server") instanceof UpstreamEngineError);
  const notFound = new errors.ApiError("not_found", "The note was not found.");
  assert.ok(notFound instanceof ApiError);
  assert.equal(notFound.status, 404);
  assert.ok(!(new Error("plain") instanceof ApiError));
  for (const value of [null, "text", 404, {}]) assert.ok(!ApiError[Symbol.hasInstance](value), String(value));
  assert.ok(new ApiError("not_found", "x") instanceof Error, "still an Error");
});
