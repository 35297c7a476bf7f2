import { ApiError } from "@/lib/http/errors.ts";

// Every state machine of the content workflow, with its rules in one place.

// ─── Generation (one task per run of a generator for a variant) ───────────────────────────────
// queued → running → succeeded | failed | conflicted; a queued task may also fail; a task whose
// variant has a newer task when its result arrives is superseded. `conflicted`: the user edited
// the variant after the task started, so the result is kept aside and never overwrites the edit.
export const GENERATION_STATES = ["queued", "running", "succeeded", "failed", "conflicted", "superseded"] as const;
export type GenerationState = (typeof GENERATION_STATES)[number];

const GENERATION_MOVES: Record<GenerationState, readonly GenerationState[]> = {
  queued: ["running", "succeeded", "failed", "conflicted", "superseded"],
  running: ["running", "succeeded", "failed", "conflicted", "superseded"],
  succeeded: [],
  failed: [],
  conflicted: [],
  superseded: [],
};

export function canMoveGeneration(from: GenerationState, to: GenerationState): boolean {
  return GENERATION_MOVES[from].includes(to);
}

export const isGenerationActive = (state: string) => state === "queued" || state === "running";

/** Where a generated result goes: applied, kept aside (the user edited since), or dropped (a newer task exists). */
export function generationOutcome(input: {
  taskBaseVersion: number;
  variantVersion: number;
  isLatestTask: boolean;
}): "succeeded" | "conflicted" | "superseded" {
  if (!input.isLatestTask) return "superseded";
  return input.taskBaseVersion === input.variantVersion ? "succeeded" : "conflicted";
}

// ─── Approval ────────────────────────────────────────────────────────────────────────────────
// awaiting_approval → approved (approve with the current content_hash); approved → awaiting_approval
// on any change of title or body. The approval records the hash it covers.
export type ApprovalState = "awaiting_approval" | "approved";

export function approvalState(item: { approvedHash: string | null; contentHash: string }): ApprovalState {
  return item.approvedHash !== null && item.approvedHash === item.contentHash ? "approved" : "awaiting_approval";
}

export function approve(
  item: { contentHash: string; generationState: string | null },
  givenHash: string,
): { approvedHash: string; approvedAt: Date } {
  if (item.generationState && isGenerationActive(item.generationState)) {
    throw new ApiError("generation_in_progress", "The variant is being generated; approve it once generation has finished.");
  }
  if (givenHash !== item.contentHash) {
    throw new ApiError(
      "edit_conflict",
      "The content_hash does not match the variant's current title and body; read it again and approve what you see.",
    );
  }
  return { approvedHash: givenHash, approvedAt: new Date() };
}

/** The fields any change of title or body sets: a new hash, the next version, no approval. */
export function afterContentChange(item: { version: number }, contentHash: string) {
  return { contentHash, version: item.version + 1, approvedHash: null, approvedAt: null };
}

// ─── Freshness ───────────────────────────────────────────────────────────────────────────────
// A variant is stale when its master's content is no longer the source snapshot it was made from.
export type Freshness = "fresh" | "stale";

export function freshness(variant: { sourceHash: string | null }, master: { contentHash: string }): Freshness {
  return variant.sourceHash === master.contentHash ? "fresh" : "stale";
}

// ─── Delivery evidence ───────────────────────────────────────────────────────────────────────
// A client reports what its share panel, clipboard or export did: initiated → presented →
// (cancelled | failed); initiated may also go straight to cancelled or failed. Opening a share
// panel proves only that sharing was presented, never that anything was published. The one
// confirmed state, confirmed_manual, is set only by the manual confirmation of an approved,
// fresh variant, and nothing moves out of it.
export const CLIENT_DELIVERY_STATES = ["initiated", "presented", "cancelled", "failed"] as const;
export type ClientDeliveryState = (typeof CLIENT_DELIVERY_STATES)[number];
export const DELIVERY_STATES = [...CLIENT_DELIVERY_STATES, "confirmed_manual"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

const DELIVERY_MOVES: Record<DeliveryState, readonly DeliveryState[]> = {
  initiated: ["presented", "cancelled", "failed"],
  presented: ["cancelled", "failed"],
  cancelled: [],
  failed: [],
  confirmed_manual: [],
};

export function moveDelivery(from: DeliveryState | null, to: ClientDeliveryState): ClientDeliveryState {
  const allowed = from === null ? CLIENT_DELIVERY_STATES : DELIVERY_MOVES[from];
  if (!allowed.includes(to)) {
    throw new ApiError("invalid_transition", `A delivery in state ${from} cannot move to ${to}.`);
  }
  return to;
}

/** Manual confirmation: only an approved variant that is not stale. */
export function confirmManually(variant: { approval: ApprovalState; freshness: Freshness }): "confirmed_manual" {
  if (variant.approval !== "approved") {
    throw new ApiError("not_approved", "Approve the variant's current title and body before confirming its publication.");
  }
  if (variant.freshness === "stale") {
    throw new ApiError("stale", "The master changed after this variant was made; regenerate or review it, approve, then confirm.");
  }
  return "confirmed_manual";
}
