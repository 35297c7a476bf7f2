import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { contentHash } from "@/lib/posts/items/content-hash.ts";

describe("contentHash", () => {
  test("is the documented SHA-256 of title + \\n + body", () => {
    const expected = createHash("sha256").update("Hello\nWorld\n\nSecond paragraph", "utf8").digest("hex");
    assert.equal(contentHash("Hello", "World\n\nSecond paragraph"), expected);
    assert.match(contentHash("", ""), /^[0-9a-f]{64}$/);
  });

  test("is stable under Unicode normalization, CRLF line endings and title padding", () => {
    const base = contentHash("Café", "línea 1\nlínea 2");
    assert.equal(contentHash("  Cafe\u0301 ", "li\u0301nea 1\r\nli\u0301nea 2"), base);
    assert.equal(contentHash("Café", "línea 1\rlínea 2"), base);
  });

  test("changes with any change of title or body, and cannot confuse the two", () => {
    const base = contentHash("a", "b");
    for (const other of [contentHash("a", "b "), contentHash("A", "b"), contentHash("a", "c"), contentHash("a\nb", ""), contentHash("", "a\nb")]) {
      assert.notEqual(other, base);
    }
    assert.notEqual(contentHash("", "a\nb"), contentHash("a", "b"));
  });
});
