import type { ContentItem, Delivery } from "@/app/_lib/posts/content.ts";

// Where one post (a variant) stands, in the words people use, and what they can do next.
// The rules live here once: the card, the Posts list and its filter all read them.

export type PostState = "writing" | "failed" | "stale" | "sharedEarlier" | "changed" | "review" | "approved" | "shared" | "published";

const SHARED_STATES = new Set(["presented"]);

export function postState(variant: ContentItem, deliveries: Delivery[]): PostState {
  const generation = variant.generation?.state;
  if (generation === "queued" || generation === "running") return "writing";
  if (generation === "failed" && !variant.body) return "failed";
  const approval = variant.approval;
  // Out of date, but its approved text went out before the note changed: it stays with the shared
  // posts, saying it was an earlier text (issue 57), until the person rewrites it.
  if (variant.freshness === "stale") return wentOut(variant, deliveries) ? "sharedEarlier" : "stale";
  if (approval?.state !== "approved") return approval?.approved_hash ? "changed" : "review";
  const mine = deliveries.filter((d) => d.item_id === variant.id && d.content_hash === variant.content_hash);
  if (mine.some((d) => d.state === "confirmed_manual")) return "published";
  // Shared: the approved text went out (share sheet, copy or file) after it was approved.
  const approvedAt = approval.approved_at ?? "";
  if (mine.some((d) => SHARED_STATES.has(d.state) && d.updated_at >= approvedAt)) return "shared";
  return "approved";
}

/** Its approved text went out (shared, or confirmed posted) after it was approved. */
function wentOut(variant: ContentItem, deliveries: Delivery[]): boolean {
  const approval = variant.approval;
  if (approval?.state !== "approved") return false;
  const approvedAt = approval.approved_at ?? "";
  return deliveries.some(
    (d) => d.item_id === variant.id && d.content_hash === variant.content_hash && (d.state === "confirmed_manual" || (SHARED_STATES.has(d.state) && d.updated_at >= approvedAt)),
  );
}

/**
 * A thread shared post by post: the next post to share (1-based), after the last one presented
 * since approval; null when it is no thread, not approved, or every post has gone out.
 */
export function nextThreadPost(variant: ContentItem, deliveries: Delivery[]): number | null {
  const count = variant.posts?.length ?? 0;
  if (count < 2 || variant.approval?.state !== "approved") return null;
  const approvedAt = variant.approval.approved_at ?? "";
  const presented = deliveries
    .filter((d) => d.item_id === variant.id && d.content_hash === variant.content_hash && SHARED_STATES.has(d.state) && d.updated_at >= approvedAt)
    .map((d) => d.post ?? count); // the whole thread at once: all of it went out
  const last = Math.max(0, ...presented);
  return last < count ? last + 1 : null;
}

export const STATE_WORDS: Record<PostState, string> = {
  writing: "Writing…",
  failed: "Could not be written",
  stale: "Out of date: the note changed",
  sharedEarlier: "Shared an earlier text",
  changed: "Changed since approval",
  review: "Ready to review",
  approved: "Approved",
  shared: "Shared",
  published: "Posted",
};

export const STATE_TONE: Record<PostState, "neutral" | "info" | "success" | "warning" | "danger"> = {
  writing: "info",
  failed: "danger",
  stale: "warning",
  sharedEarlier: "warning",
  changed: "warning",
  review: "info",
  approved: "success",
  shared: "success",
  published: "success",
};

/** The Posts list's filters: a master shows under each filter one of its posts matches. */
export type PostFilter = "all" | "review" | "approved" | "shared" | "published" | "stale";
export const FILTERS: { value: PostFilter; label: string; states: PostState[] }[] = [
  { value: "all", label: "All", states: [] },
  { value: "review", label: "Needs review", states: ["review", "changed", "failed"] },
  { value: "approved", label: "Approved", states: ["approved"] },
  { value: "shared", label: "Shared", states: ["shared", "sharedEarlier"] },
  { value: "published", label: "Posted", states: ["published"] },
  { value: "stale", label: "Out of date", states: ["stale"] },
];

/** The latest manual confirmation of a variant's current text (its link is shown on the card). */
export function confirmation(variant: ContentItem, deliveries: Delivery[]): Delivery | undefined {
  return deliveries.find((d) => d.item_id === variant.id && d.state === "confirmed_manual" && d.content_hash === variant.content_hash);
}
