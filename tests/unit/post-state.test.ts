import assert from "node:assert/strict";
import { test } from "node:test";
import { FILTERS, confirmation, nextThreadPost, postState } from "@/app/_components/posts/post-state.ts";
import type { ContentItem, Delivery } from "@/app/_lib/posts/content.ts";

const HASH = "a".repeat(64);
const OTHER = "b".repeat(64);
const T0 = "2026-01-01T10:00:00.000Z";
const T1 = "2026-01-01T11:00:00.000Z";

function variant(over: Partial<ContentItem> = {}): ContentItem {
  return {
    id: "v1",
    kind: "variant",
    master_id: "m1",
    title: "",
    body: "Hello.",
    content_hash: HASH,
    version: 1,
    source_transcription_id: null,
    source_text_kind: null,
    source_outdated: null,
    source_note_updated_at: null,
    channel_id: "c1",
    preset_id: "builtin-standard",
    posts: ["Hello."],
    source: { content_hash: OTHER, version: 1 },
    generation: { task_id: "t", state: "succeeded", generator: "local", written_by: "offline", offline_reason: null, partial_body: null, model_on_its_way: null, error: null, created_at: T0, finished_at: T0, set_aside: null },
    approval: { state: "awaiting_approval", approved_hash: null, approved_at: null },
    freshness: "fresh",
    created_at: T0,
    updated_at: T0,
    ...over,
  };
}
const approved = { state: "approved" as const, approved_hash: HASH, approved_at: T1 };
const delivery = (over: Partial<Delivery>): Delivery => ({
  id: "d1",
  item_id: "v1",
  method: "share",
  state: "presented",
  content_hash: HASH,
  published_url: null,
  post: null,
  created_at: T1,
  updated_at: T1,
  ...over,
});

test("a post's state, from writing to posted, in the order the card shows them", () => {
  const running = variant({ generation: { ...variant().generation!, state: "running" } });
  assert.equal(postState(running, []), "writing");
  assert.equal(postState(variant({ body: "", generation: { ...variant().generation!, state: "failed", error: "x" } }), []), "failed");
  assert.equal(postState(variant(), []), "review");
  assert.equal(postState(variant({ approval: { state: "awaiting_approval", approved_hash: OTHER, approved_at: T0 } }), []), "changed");
  assert.equal(postState(variant({ approval: approved }), []), "approved");
  assert.equal(postState(variant({ approval: approved }), [delivery({})]), "shared");
  assert.equal(postState(variant({ approval: approved }), [delivery({}), delivery({ id: "d2", method: "manual", state: "confirmed_manual" })]), "published");
  // Out of date wins over everything but writing: the note changed after it was written. One
  // whose approved text went out stays with the shared ones, as an earlier text (issue 57).
  assert.equal(postState(variant({ approval: approved, freshness: "stale" }), []), "stale");
  assert.equal(postState(variant({ freshness: "stale" }), [delivery({})]), "stale", "not approved: nothing of it went out as approved");
  assert.equal(postState(variant({ approval: approved, freshness: "stale" }), [delivery({})]), "sharedEarlier");
  assert.equal(postState(variant({ approval: approved, freshness: "stale" }), [delivery({ method: "manual", state: "confirmed_manual" })]), "sharedEarlier");
  assert.equal(postState(variant({ approval: approved, freshness: "stale" }), [delivery({ created_at: T0, updated_at: T0 })]), "stale", "shared before its approval");
});

test("only what went out after approval, for this text and this post, counts as shared", () => {
  const v = variant({ approval: approved });
  assert.equal(postState(v, [delivery({ method: "copy", created_at: T0, updated_at: T0 })]), "approved", "copied before approval");
  assert.equal(postState(v, [delivery({ state: "cancelled" })]), "approved", "a cancelled share");
  assert.equal(postState(v, [delivery({ content_hash: OTHER })]), "approved", "an earlier text");
  assert.equal(postState(v, [delivery({ item_id: "v2" })]), "approved", "another post");
  assert.equal(confirmation(v, [delivery({ method: "manual", state: "confirmed_manual", content_hash: OTHER })]), undefined);
});

test("every state a post can be in is under one filter besides All, except writing", () => {
  const filtered = FILTERS.filter((f) => f.value !== "all").flatMap((f) => f.states);
  assert.deepEqual([...filtered].sort(), ["approved", "changed", "failed", "published", "review", "shared", "sharedEarlier", "stale"]);
});

test("a thread goes out post by post: the next post after the last one presented since approval", () => {
  const thread = variant({ posts: ["one", "two", "three"], approval: approved });
  assert.equal(nextThreadPost(thread, []), 1);
  assert.equal(nextThreadPost(thread, [delivery({ post: 1 })]), 2);
  assert.equal(nextThreadPost(thread, [delivery({ post: 1 }), delivery({ post: 2, state: "cancelled" })]), 2, "a cancelled share is not presented");
  assert.equal(nextThreadPost(thread, [delivery({ post: 2 })]), 3);
  assert.equal(nextThreadPost(thread, [delivery({ post: 3 })]), null, "all out");
  assert.equal(nextThreadPost(thread, [delivery({ post: null })]), null, "the whole thread at once");
  assert.equal(nextThreadPost(thread, [delivery({ post: 1, content_hash: OTHER })]), 1, "an earlier text's share does not count");
  assert.equal(nextThreadPost(variant({ posts: ["one"], approval: approved }), []), null, "a single post is no thread");
  assert.equal(nextThreadPost(variant({ posts: ["one", "two"] }), []), null, "not approved");
});
