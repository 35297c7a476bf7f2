import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "@/lib/http/errors.ts";
import {
  afterContentChange,
  approvalState,
  approve,
  canMoveGeneration,
  CLIENT_DELIVERY_STATES,
  confirmManually,
  freshness,
  generationOutcome,
  moveDelivery,
} from "@/lib/posts/items/states.ts";

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as ApiError).code;
  }
  return "ok";
};

describe("approval", () => {
  test("approves only the current hash, and not while generating", () => {
    assert.equal(approve({ contentHash: "h1", generationState: "succeeded" }, "h1").approvedHash, "h1");
    assert.equal(code(() => approve({ contentHash: "h1", generationState: null }, "h0")), "edit_conflict");
    assert.equal(code(() => approve({ contentHash: "h1", generationState: "running" }, "h1")), "generation_in_progress");
    assert.equal(code(() => approve({ contentHash: "h1", generationState: "queued" }, "h1")), "generation_in_progress");
  });

  test("any content change clears the approval and bumps the version", () => {
    assert.equal(approvalState({ approvedHash: "h1", contentHash: "h1" }), "approved");
    const changed = afterContentChange({ version: 3 }, "h2");
    assert.deepEqual(changed, { contentHash: "h2", version: 4, approvedHash: null, approvedAt: null });
    assert.equal(approvalState({ ...changed }), "awaiting_approval");
    // An approval of other content never counts.
    assert.equal(approvalState({ approvedHash: "h1", contentHash: "h2" }), "awaiting_approval");
  });
});

describe("freshness and manual confirmation", () => {
  test("stale when the master no longer has the snapshot's content", () => {
    assert.equal(freshness({ sourceHash: "m1" }, { contentHash: "m1" }), "fresh");
    assert.equal(freshness({ sourceHash: "m1" }, { contentHash: "m2" }), "stale");
  });

  test("confirmation needs approved and fresh; not_approved is reported first", () => {
    assert.equal(confirmManually({ approval: "approved", freshness: "fresh" }), "confirmed_manual");
    assert.equal(code(() => confirmManually({ approval: "approved", freshness: "stale" })), "stale");
    assert.equal(code(() => confirmManually({ approval: "awaiting_approval", freshness: "fresh" })), "not_approved");
    assert.equal(code(() => confirmManually({ approval: "awaiting_approval", freshness: "stale" })), "not_approved");
  });
});

describe("generation", () => {
  test("a result applies only to the version it started from, and only for the newest task", () => {
    assert.equal(generationOutcome({ taskBaseVersion: 2, variantVersion: 2, isLatestTask: true }), "succeeded");
    assert.equal(generationOutcome({ taskBaseVersion: 2, variantVersion: 3, isLatestTask: true }), "conflicted");
    assert.equal(generationOutcome({ taskBaseVersion: 2, variantVersion: 2, isLatestTask: false }), "superseded");
  });

  test("finished tasks do not move", () => {
    assert.ok(canMoveGeneration("queued", "running"));
    assert.ok(canMoveGeneration("running", "succeeded"));
    for (const done of ["succeeded", "failed", "conflicted", "superseded"] as const) {
      assert.ok(!canMoveGeneration(done, "succeeded"), done);
      assert.ok(!canMoveGeneration(done, "running"), done);
    }
  });
});

describe("delivery evidence", () => {
  test("the client-reportable states never include a confirmation", () => {
    assert.deepEqual([...CLIENT_DELIVERY_STATES], ["initiated", "presented", "cancelled", "failed"]);
  });

  test("transitions", () => {
    for (const start of CLIENT_DELIVERY_STATES) assert.equal(moveDelivery(null, start), start);
    assert.equal(moveDelivery("initiated", "presented"), "presented");
    assert.equal(moveDelivery("presented", "cancelled"), "cancelled");
    assert.equal(code(() => moveDelivery("presented", "initiated")), "invalid_transition");
    assert.equal(code(() => moveDelivery("cancelled", "presented")), "invalid_transition");
    assert.equal(code(() => moveDelivery("confirmed_manual", "cancelled")), "invalid_transition");
  });
});
