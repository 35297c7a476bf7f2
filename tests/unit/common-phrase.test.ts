import assert from "node:assert/strict";
import { test } from "node:test";
import { isCommonPhrase } from "@/lib/dictionary/common-phrase.ts";
import { isEverydayPhrase } from "@/lib/dictionary/common-words.ts";

// "Fix a word" weighs a word by these (issue 57 item 3): a common one is fixed where it was tapped.

test("everyday words and the most spoken English ones are common; names and terms are not", () => {
  for (const phrase of ["my", "and the", "blows", "greatly", "Blows", "don't", "country's", "in 2026"]) assert.ok(isCommonPhrase(phrase, "en"), phrase);
  for (const phrase of ["Kubernetes", "Anna", "my Kubernetes", "", "…"]) assert.ok(!isCommonPhrase(phrase, "en"), phrase);
});

test("the everyday list is the narrower one: a most-spoken word is common but not everyday", () => {
  assert.ok(isEverydayPhrase("and the", "en"));
  assert.ok(!isEverydayPhrase("greatly", "en"));
  assert.ok(isCommonPhrase("greatly", "en"));
});
