import assert from "node:assert/strict";
import { test } from "node:test";
import { normalizeTag, spelledAsBefore, tagKey, uniqueTags } from "@/lib/tags/normalize-tag.ts";
import { splitTagTerms } from "@/lib/tags/tag-query.ts";

test("a tag is trimmed, its spaces collapsed, a leading # dropped; case and compatibility forms make one key", () => {
  assert.equal(normalizeTag("  #Work  in\tprogress "), "Work in progress");
  assert.equal(normalizeTag("##  idea"), "idea");
  assert.equal(normalizeTag("C#"), "C#");
  assert.equal(normalizeTag("Cafe\u0301"), "Café");
  assert.equal(tagKey("ＷＯＲＫ"), tagKey("work"));
  assert.equal(tagKey("Straße"), "straße");
});

test("repeats count once, the first spelling and the order kept; a tag used before keeps its spelling", () => {
  assert.deepEqual(uniqueTags(["Work", "ideas", "WORK", "work "]), ["Work", "ideas"]);
  const before = new Map([["work", "Work"]]);
  assert.deepEqual(spelledAsBefore(["work", "new", "NEW"], before), ["Work", "new"]);
});

test("tag: terms come out of a search; the rest is searched as typed", () => {
  assert.deepEqual(splitTagTerms("tag:work idea"), { tags: ["work"], excluded: [], rest: "idea" });
  assert.deepEqual(splitTagTerms('countr tag:"client x" -tag:draft'), { tags: ["client x"], excluded: ["draft"], rest: "countr " });
  assert.deepEqual(splitTagTerms("TAG:#Work countr"), { tags: ["Work"], excluded: [], rest: "countr" });
  // Half typed: "tag:" alone filters nothing; a word merely containing tag: is not a term.
  assert.deepEqual(splitTagTerms("tag:"), { tags: [], excluded: [], rest: "" });
  assert.deepEqual(splitTagTerms("hashtag:x"), { tags: [], excluded: [], rest: "hashtag:x" });
});
