import { test } from "node:test";
import assert from "node:assert/strict";
import { setBounded } from "@/lib/bounded-map.ts";

test("a full map drops its stale entries first, then everything, and never grows past its bound", () => {
  const map = new Map<string, number>([["a", 1], ["b", 2], ["c", 3]]);
  setBounded(map, "d", 4, 3, (v) => v < 2);
  assert.deepEqual([...map.keys()], ["b", "c", "d"]);
  setBounded(map, "e", 5, 3, () => false);
  assert.deepEqual([...map.entries()], [["e", 5]]);
  setBounded(map, "e", 6, 1, () => false); // replacing a key evicts nothing
  assert.deepEqual([...map.entries()], [["e", 6]]);
  for (let i = 0; i < 100; i++) setBounded(map, `k${i}`, i, 10, () => false);
  assert.ok(map.size <= 10);
});
