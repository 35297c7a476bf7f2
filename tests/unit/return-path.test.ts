import assert from "node:assert/strict";
import { test } from "node:test";
import { returnPath } from "@/lib/auth/return-path.ts";

// Sign-in and sign-up follow ?next= back to the OAuth consent page only: never to another site.
test("?next= returns to a consent page and nowhere else", () => {
  assert.equal(returnPath("/oauth/consent/abc_DEF-123"), "/oauth/consent/abc_DEF-123");
  for (const asked of ["//evil.example/oauth/consent/x", "https://evil.example/", "/record", "/oauth/consent/../../x", "/oauth/consent/x?y=1", "/oauth/consent/", ["/oauth/consent/x"], undefined]) {
    assert.equal(returnPath(asked), undefined, String(asked));
  }
});
