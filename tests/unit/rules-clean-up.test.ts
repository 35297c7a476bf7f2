import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { chunkTranscript, joinChunks } from "@/lib/clean-up/chunk-text.ts";
import { cleanUpByRules, tidyCaption } from "@/lib/clean-up/rules-clean-up.ts";

describe("chunkTranscript", () => {
  const segments = [
    { start: 0, end: 2, text: "one two three" },
    { start: 2.3, end: 4, text: "four five" },
    { start: 7, end: 9, text: "six seven eight nine" },
  ];

  test("keeps utterances whole, one per line, within the word budget", () => {
    const chunks = chunkTranscript("", segments, 5);
    assert.deepEqual(chunks.map((c) => c.inputText), ["one two three\nfour five", "six seven eight nine"]);
    assert.deepEqual(chunks.map((c) => c.paragraph), [false, true], "a 3 s pause starts a paragraph");
  });

  test("marks a paragraph inside a chunk with an empty line; splits an over-long utterance", () => {
    assert.deepEqual(chunkTranscript("", segments, 50).map((c) => c.inputText), ["one two three\nfour five\n\nsix seven eight nine"]);
    assert.deepEqual(chunkTranscript("", segments, 2).map((c) => c.inputText), ["one two", "three", "four five", "six seven", "eight nine"]);
  });

  test("without segments, the text is chunked by words; empty text gives no chunks", () => {
    assert.deepEqual(chunkTranscript("a b c d e", [], 2).map((c) => c.inputText), ["a b", "c d", "e"]);
    assert.deepEqual(chunkTranscript("  ", [], 2), []);
  });

  test("joinChunks puts paragraphs back", () => {
    assert.equal(joinChunks([{ paragraph: false, outputText: "A." }, { paragraph: false, outputText: "B." }, { paragraph: true, outputText: "C." }]), "A. B.\n\nC.");
  });
});

describe("the local optimizer", () => {
  test("one sentence per utterance, capitalized, fillers and stutters dropped, I capitalized", () => {
    assert.equal(cleanUpByRules("um so i think the the plan is good\nwe should ship it uh tomorrow"), "So I think the plan is good. We should ship it tomorrow.");
  });

  test("keeps existing punctuation and question marks; i'm becomes I'm", () => {
    assert.equal(cleanUpByRules("is it ready?\ni'm not sure, um, really"), "Is it ready? I'm not sure, really.");
  });

  test("empty lines become paragraph breaks; a line of only fillers disappears", () => {
    assert.equal(cleanUpByRules("first point\n\nuh um\nsecond point"), "First point.\n\nSecond point.");
  });

  test("is deterministic and idempotent", () => {
    const once = cleanUpByRules("well hello there\nhow are you");
    assert.equal(cleanUpByRules(once), once);
  });
});

describe("live captions", () => {
  test("read as the note will: no fillers or doubled words, I and I'm, a capital first letter, no full stop added", () => {
    assert.equal(tidyCaption("and i um think i'm the the one what your country can do"), "And I think I'm the one what your country can do");
    assert.equal(tidyCaption("uh"), "");
    assert.equal(tidyCaption(""), "");
    assert.equal(tidyCaption("Kubernetes is why i'd stay. so uh yes"), "Kubernetes is why I'd stay. So yes");
  });
});
