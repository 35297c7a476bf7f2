import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { suggestFromEdit } from "@/lib/dictionary/suggest-from-edit.ts";
import { matchedPairs } from "@/lib/dictionary/word-diff.ts";

const suggest = (before: string, after: string, options: { known?: Set<string>; language?: string } = {}) =>
  suggestFromEdit({ before, after, ...options }).map((s) => `${s.misspelling} → ${s.correct_spelling} ×${s.occurrences}`);

describe("dictionary suggestions from an edit", () => {
  test("a misrecognized term, across the optimizer's punctuation, casing and dropped fillers", () => {
    assert.deepEqual(suggest("um so we moved the cluster to cooper netties last week", "So we moved the cluster to Kubernetes last week."), [
      "cooper netties → Kubernetes ×1",
    ]);
    assert.deepEqual(suggest("cooper netties", "Kubernetes"), ["cooper netties → Kubernetes ×1"]);
  });

  test("several terms, counted, most frequent first", () => {
    assert.deepEqual(
      suggest("we store it in post grass and use get hub and then cube control apply and cube control get pods", "We store it in Postgres and use GitHub, and then kubectl apply and kubectl get pods."),
      ["cube control → kubectl ×2", "post grass → Postgres ×1", "get hub → GitHub ×1"],
    );
  });

  test("the most frequent correction of a misspelling wins", () => {
    assert.deepEqual(suggest("ask jason. ask jason. ask jason.", "Ask JSON. Ask JSON. Ask Jason."), ["jason → JSON ×2"]);
  });

  test("never common words, synonyms or insertions and deletions", () => {
    assert.deepEqual(suggest("their going home now", "They're going home now."), []);
    assert.deepEqual(suggest("the meeting was productive", "The conference was productive."), []);
    assert.deepEqual(suggest("we ship on Friday", "We really ship on Friday, finally."), []);
    assert.deepEqual(suggest("we ship the new release on Friday", "We ship on Friday."), []);
  });

  test("never a one-off rewrite: long spans or a mostly rewritten sentence", () => {
    assert.deepEqual(
      suggest("we talked about the budget for the next quarter and the hiring plan", "Budget review postponed; hiring frozen until March."),
      [],
    );
    assert.deepEqual(suggest("the deploy went through without cooper netties trouble today", "The deploy failed badly because Kubernetes lost the nodes."), []);
    assert.deepEqual(suggest("it runs on the cooper netties cluster here", "It runs on a managed Kubernetes cluster somewhere else."), []);
    assert.deepEqual(suggest("yes cooper netties broke the build", "Yes Kubernetes broke absolutely everything we had built."), []);
    assert.deepEqual(suggest("yes cooper netties broke the build", "Yes Kubernetes broke the build."), ["cooper netties → Kubernetes ×1"]);
  });

  test("case only: proper nouns mid-sentence or with inner capitals, not sentence starts or German nouns", () => {
    assert.deepEqual(suggest("i went to berlin with my friend on friday", "I went to Berlin with my friend on Friday."), ["berlin → Berlin ×1", "friday → Friday ×1"]);
    assert.deepEqual(suggest("we use github daily", "We use GitHub daily."), ["github → GitHub ×1"]);
    assert.deepEqual(suggest("docker is here. docker runs", "Docker is here. Docker runs"), []);
    assert.deepEqual(suggest("wir nutzen cooper netties im team", "Wir nutzen Kubernetes im Team.", { language: "de" }), ["cooper netties → Kubernetes ×1"]);
  });

  test("non-English text and entries already in the dictionary", () => {
    assert.deepEqual(suggest("usamos cooper netties en producción", "Usamos Kubernetes en producción."), ["cooper netties → Kubernetes ×1"]);
    assert.deepEqual(suggest("we use cooper netties", "We use Kubernetes.", { known: new Set(["cooper netties"]) }), []);
  });

  test("an unchanged or empty text suggests nothing", () => {
    assert.deepEqual(suggest("", ""), []);
    assert.deepEqual(suggest("same words here", "Same words here."), []);
    assert.deepEqual(suggest("", "Kubernetes"), []);
  });
});

describe("word alignment", () => {
  const lcsLength = (a: string[], b: string[]) => {
    const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i += 1)
      for (let j = 1; j <= b.length; j += 1) dp[i][j] = a[i - 1] === b[j - 1] ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
    return dp[a.length][b.length];
  };

  test("finds a longest common subsequence, as increasing matching pairs", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 300; run += 1) {
      const word = () => "abcde"[Math.floor(random() * 5)];
      const a = Array.from({ length: Math.floor(random() * 12) }, word);
      const b = Array.from({ length: Math.floor(random() * 12) }, word);
      const pairs = matchedPairs(a, b)!;
      assert.equal(pairs.length, lcsLength(a, b), `${a.join("")} / ${b.join("")}`);
      pairs.forEach(([i, j], n) => {
        assert.equal(a[i], b[j]);
        if (n) assert.ok(i > pairs[n - 1][0] && j > pairs[n - 1][1]);
      });
    }
  });

  test("gives up beyond the edit limit", () => {
    assert.equal(matchedPairs(["a", "b", "c"], ["x", "y", "z"], 2), null);
    assert.equal(matchedPairs(["a", "b", "c"], ["x", "y", "z"], 6)?.length, 0);
  });
});
