import assert from "node:assert/strict";
import { test } from "node:test";
import { searchCount } from "@/app/_lib/notes/search-count.ts";

// Notes → search says how many notes matched in plain words (issue 44: "1 note match").
test("one note matches; two or more notes match", () => {
  assert.equal(searchCount(1, "countr"), "1 note matches “countr”");
  assert.equal(searchCount(2, "countr"), "2 notes match “countr”");
  assert.equal(searchCount(1200, "tag:work x"), "1,200 notes match “tag:work x”");
});
