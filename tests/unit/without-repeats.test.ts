// withoutRepeats finds near repeats through an index of the kept sentences' rarest words (issue 60:
// the pairwise version took 14 s on a 480 KB note). It must keep exactly what comparing every pair keeps.
import assert from "node:assert/strict";
import { test } from "node:test";
import { repeats, withoutRepeats } from "@/lib/writer/sentences.ts";

const naive = <T extends { text: string }>(units: T[]) => {
  const kept: T[] = [];
  for (const unit of units) if (!kept.some((k) => repeats(unit.text, k.text))) kept.push(unit);
  return kept;
};

function random(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

test("the same sentences kept as by comparing every pair, repeats and near repeats included", () => {
  const vocabulary = "we should ship the launch plan on friday after the budget review with anna and the hiring team in berlin next quarter".split(" ");
  for (let seed = 1; seed <= 30; seed++) {
    const next = random(seed);
    const sentences: string[] = [];
    for (let i = 0; i < 200; i++) {
      const earlier = sentences.length && next() < 0.4 ? sentences[Math.floor(next() * sentences.length)] : undefined;
      if (earlier) {
        // Said again: the same, with its case changed, or with one word changed, added or dropped.
        const words = earlier.split(" ");
        const change = Math.floor(next() * 4);
        const at = Math.floor(next() * words.length);
        if (change === 1) words[at] = vocabulary[Math.floor(next() * vocabulary.length)];
        if (change === 2) words.splice(at, 0, vocabulary[Math.floor(next() * vocabulary.length)]);
        if (change === 3 && words.length > 1) words.splice(at, 1);
        sentences.push(next() < 0.5 ? words.join(" ").toUpperCase() : words.join(" "));
      } else {
        const length = 3 + Math.floor(next() * 20);
        sentences.push(Array.from({ length }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(" "));
      }
    }
    const units = sentences.map((text) => ({ text }));
    assert.deepEqual(withoutRepeats(units), naive(units), `seed ${seed}`);
  }
});
