import assert from "node:assert/strict";
import { test } from "node:test";
import { cleanUpDid } from "@/app/_components/note/text/clean-up-did.ts";

// The clean-up sheet's line above its list of changed words: what the clean-up did, and a colon only
// where the list follows it (issue 69: "…these words changed: Names keep the recognizer's spelling"
// put a sentence where the colon promised the words).

test("the line ends with its colon when the changed words follow, and says what was done only where it was", () => {
  const recognized = "so we met mr john on friday we agreed";
  const cleaned = "So we met mr John on Friday. We agreed.";
  const both = cleanUpDid(recognized, cleaned, true);
  assert.match(both, /^Punctuation and capitals at the start of sentences were added\. /);
  assert.match(both, /These words changed:$/);
  assert.equal(both.match(/:/g)?.length, 2, "the tip's colon and the list's");
  const noWords = cleanUpDid(recognized, cleaned, false);
  assert.match(noWords, /, and no word changed\. Names keep the recognizer's spelling: tap one to fix it\.$/);
  assert.equal(cleanUpDid("we agreed", "we agreed.", true), "Punctuation was added. Names keep the recognizer's spelling: tap one to fix it. These words changed:");
  assert.equal(cleanUpDid("we agreed", "we agreed", true), "These words changed:");
  assert.equal(cleanUpDid("we agreed", "we agreed", false), "Nothing changed but spacing.");
});
