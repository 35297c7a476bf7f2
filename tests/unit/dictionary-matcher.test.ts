import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { applyDictionary, compileDictionary, type DictionaryEntry } from "@/lib/dictionary/matcher.ts";
import { matchKey } from "@/lib/dictionary/match-key.ts";

function entry(misspelling: string, correctSpelling: string): DictionaryEntry {
  return { misspelling, correctSpelling };
}

function fix(text: string, entries: DictionaryEntry[]): string {
  return applyDictionary(text, entries).text;
}

describe("whole words only", () => {
  test("does not match inside a longer word", () => {
    const result = applyDictionary("category scat cat cats", [entry("cat", "dog")]);
    assert.deepEqual(result, { text: "category scat dog cats", replacements: 1 });
  });

  test("matches a word next to an apostrophe or hyphen, like a regex word boundary", () => {
    assert.equal(fix("Cat's toy, re-cat", [entry("cat", "dog")]), "dog's toy, re-dog");
  });

  test("digits and underscores are part of a word", () => {
    assert.equal(fix("cat2 cat_x 2cat cat", [entry("cat", "dog")]), "cat2 cat_x 2cat dog");
  });
});

describe("case", () => {
  test("matches any casing and writes the stored casing", () => {
    const result = applyDictionary("kubernetes, KUBERNETES and KuBeRnEtEs", [entry("kubernetes", "Kubernetes")]);
    assert.deepEqual(result, { text: "Kubernetes, Kubernetes and Kubernetes", replacements: 3 });
  });

  test("an already-correct span is kept and not counted as a replacement", () => {
    const result = applyDictionary("Kubernetes and kubernetes", [entry("kubernetes", "Kubernetes")]);
    assert.deepEqual(result, { text: "Kubernetes and Kubernetes", replacements: 1 });
  });

  test("other words keep their casing", () => {
    assert.equal(fix("Deploy ON kubernetes NOW", [entry("kubernetes", "Kubernetes")]), "Deploy ON Kubernetes NOW");
  });
});

describe("multi-word misspellings", () => {
  test("match across several spaces, tabs and a newline", () => {
    const entries = [entry("post gress", "PostgreSQL")];
    assert.equal(fix("use post gress", entries), "use PostgreSQL");
    assert.equal(fix("use post    gress now", entries), "use PostgreSQL now");
    assert.equal(fix("use post\n\tgress now", entries), "use PostgreSQL now");
  });

  test("require every word in order", () => {
    const entries = [entry("post gress", "PostgreSQL")];
    assert.equal(fix("post office gress", entries), "post office gress");
    assert.equal(fix("postgress", entries), "postgress");
    assert.equal(fix("post, gress", entries), "post, gress");
  });

  test("whitespace inside the stored misspelling is normalized", () => {
    assert.equal(fix("post gress", [entry("  post \n gress  ", "PostgreSQL")]), "PostgreSQL");
  });

  test("longest match wins at a position", () => {
    const entries = [entry("new", "NEW"), entry("new york", "New York"), entry("york", "YORK")];
    assert.equal(fix("new york and new jersey", entries), "New York and NEW jersey");
  });

  test("longest match wins regardless of entry order", () => {
    const entries = [entry("new york city", "NYC"), entry("new york", "New York")];
    assert.equal(fix("new york city, new york", entries), "NYC, New York");
  });

  test("falls back to a shorter match when the longer phrase is incomplete", () => {
    const entries = [entry("new", "NEW"), entry("new york city", "NYC")];
    assert.equal(fix("new york", entries), "NEW york");
  });
});

describe("one pass", () => {
  test("a correction is never corrected again", () => {
    const entries = [entry("a", "b"), entry("b", "c")];
    assert.deepEqual(applyDictionary("a", entries), { text: "b", replacements: 1 });
    assert.equal(fix("a b", entries), "b c");
  });

  test("a correction containing its misspelling is not expanded again", () => {
    assert.equal(fix("js", [entry("js", "js js")]), "js js");
  });

  test("matching resumes after a replacement", () => {
    const entries = [entry("a b", "X"), entry("b c", "Y")];
    assert.equal(fix("a b c", entries), "X c");
  });
});

describe("punctuation", () => {
  test("punctuation around a match is kept byte for byte", () => {
    const result = applyDictionary("(postgress), \"postgress\"; postgress.", [entry("postgress", "PostgreSQL")]);
    assert.deepEqual(result, { text: "(PostgreSQL), \"PostgreSQL\"; PostgreSQL.", replacements: 3 });
  });

  test("a correction may contain punctuation", () => {
    assert.equal(fix("I write c plus plus daily", [entry("c plus plus", "C++")]), "I write C++ daily");
    assert.equal(fix("gpt 4 and GPT 4o", [entry("gpt 4", "GPT-4")]), "GPT-4 and GPT 4o");
  });

  test("a misspelling may contain punctuation", () => {
    const entries = [entry("nodejs", "Node.js"), entry("node.js", "Node.js"), entry("c++", "C++")];
    assert.equal(fix("nodejs, NODE.JS and node.js.", entries), "Node.js, Node.js and Node.js.");
    assert.equal(fix("node. js", entries), "node. js");
    assert.equal(fix("c++ and C++11 and c + +", entries), "C++ and C++11 and c + +");
  });

  test("dotted abbreviations and apostrophes", () => {
    const entries = [entry("e.g.", "for example"), entry("dont", "don't")];
    assert.equal(fix("E.g. this; e.g., that", entries), "for example this; for example, that");
    assert.equal(fix("I dont know, I don't care", entries), "I don't know, I don't care");
  });
});

describe("Unicode", () => {
  test("accented letters match case-insensitively", () => {
    const entries = [entry("café", "Café")];
    assert.equal(fix("café CAFÉ cafe cafés", entries), "Café Café cafe cafés");
  });

  test("decomposed (NFD) text matches a composed (NFC) entry and vice versa", () => {
    const nfd = "cafe\u0301";
    assert.equal(fix(`a ${nfd}.`, [entry("café", "Café")]), "a Café.");
    assert.equal(fix("a café.", [entry(nfd, "Café")]), "a Café.");
    assert.equal(fix("x =\u0338 y", [entry("x ≠ y", "x differs from y")]), "x differs from y");
  });

  test("German sharp s folds to ss", () => {
    const entries = [entry("strasse", "Straße")];
    assert.equal(fix("straße STRASSE Strasse", entries), "Straße Straße Straße");
    assert.equal(fix("STRASSE", [entry("Straße", "Straße")]), "Straße");
  });

  test("Greek final sigma matches regular sigma", () => {
    assert.equal(fix("ΟΔΟΣ οδος", [entry("οδοσ", "Οδός")]), "Οδός Οδός");
  });

  test("Cyrillic words", () => {
    const entries = [entry("привет мир", "Привет, мир")];
    assert.equal(fix("ПРИВЕТ   мир! приветмир", entries), "Привет, мир! приветмир");
  });

  test("CJK characters next to punctuation", () => {
    assert.equal(fix("我爱东京。东京!", [entry("东京", "Tokyo")]), "我爱东京。Tokyo!");
    assert.equal(fix("（东京）、东京。", [entry("东京", "Tokyo")]), "（Tokyo）、Tokyo。");
  });

  test("emoji are single tokens that can be matched or surround a match", () => {
    assert.equal(fix("🚀ship it🚀", [entry("ship it", "Ship it")]), "🚀Ship it🚀");
    assert.equal(fix("launch 🚀 now", [entry("🚀", "rocket")]), "launch rocket now");
    assert.equal(fix("love ❤️!", [entry("❤️", "heart")]), "love heart!");
  });
});

describe("entries", () => {
  test("a later entry with the same key wins", () => {
    const entries = [entry("Postgress", "Postgres"), entry("POSTGRESS", "PostgreSQL")];
    assert.equal(fix("postgress", entries), "PostgreSQL");
  });

  test("later duplicate wins for multi-word keys with different spacing", () => {
    const entries = [entry("new  york", "NY"), entry("New York", "New York")];
    assert.equal(fix("new york", entries), "New York");
  });

  test("empty and whitespace-only misspellings are ignored", () => {
    const entries = [entry("", "X"), entry("   \n ", "Y"), entry("cat", "dog")];
    assert.deepEqual(applyDictionary(" a  cat ", entries), { text: " a  dog ", replacements: 1 });
  });

  test("empty text and empty dictionary", () => {
    assert.deepEqual(applyDictionary("", [entry("cat", "dog")]), { text: "", replacements: 0 });
    assert.deepEqual(applyDictionary("  \n", [entry("cat", "dog")]), { text: "  \n", replacements: 0 });
    assert.deepEqual(applyDictionary("a cat", []), { text: "a cat", replacements: 0 });
  });

  test("a compiled dictionary can be applied repeatedly", () => {
    const dictionary = compileDictionary([entry("cat", "dog")]);
    assert.equal(dictionary.apply("cat").text, "dog");
    assert.equal(dictionary.apply("a cat, a cat").text, "a dog, a dog");
  });
});

describe("matchKey", () => {
  test("trims, collapses whitespace and folds case", () => {
    assert.equal(matchKey(" Foo  Bar "), "foo bar");
    assert.equal(matchKey("foo bar"), "foo bar");
    assert.equal(matchKey("FOO\n\tBAR"), "foo bar");
  });

  test("folds ß, sigma and NFD alike", () => {
    assert.equal(matchKey("Straße"), "strasse");
    assert.equal(matchKey("STRASSE"), matchKey("Straße"));
    assert.equal(matchKey("ΟΔΟΣ"), matchKey("οδοσ"));
    assert.equal(matchKey("cafe\u0301"), "café");
    assert.equal(matchKey("CAFÉ"), "café");
  });

  test("keeps punctuation and its spacing", () => {
    assert.equal(matchKey("Node.JS"), "node.js");
    assert.notEqual(matchKey("node. js"), matchKey("node.js"));
    assert.equal(matchKey("  "), "");
  });

  test("equal keys are exactly the entries the matcher treats as one", () => {
    const spellings = ["ΟΔΟΣ.ΚΑΙ", "οδος.και", "Straße x", "STRASSE  X", "c++", "C + +"];
    for (const a of spellings) {
      for (const b of spellings) {
        const sameKey = matchKey(a) === matchKey(b);
        const matcherAgrees = fix(b, [entry(a, "<hit>")]) === "<hit>";
        assert.equal(matcherAgrees, sameKey, `${a} vs ${b}`);
      }
    }
  });
});
