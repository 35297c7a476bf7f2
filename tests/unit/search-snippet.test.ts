import assert from "node:assert/strict";
import { test } from "node:test";
import { snippet, snippetPieces } from "@/lib/notes/search-notes.ts";
import { termMatcher, type SnippetTerm } from "@/lib/notes/store/term-matcher.ts";

// A search result's snippet reads a note only up to its window (issue 66: all of a 480 KB note's
// words were listed on the request thread). It must cut the same window as reading the whole note
// does (the pieces around the window are made alike, by snippetPieces): here against that whole reading, over texts with the word at the start, in the middle, near
// the end, twice, or not at all, and over short texts.

/** The snippet read from all of the text's words at once (what snippet() did before). */
function wholeReading(text: string, terms: SnippetTerm[]) {
  const matches = termMatcher(terms);
  const all = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  if (!all.length) return [{ text: text.slice(0, 200), match: false }];
  const first = Math.max(0, all.findIndex(([word]) => matches(word)));
  const from = Math.max(0, Math.min(first - 8, all.length - 30));
  const shown = all.slice(from, from + 30).map((m) => ({ start: m.index, end: m.index + m[0].length, match: matches(m[0]) }));
  return snippetPieces(text, shown, { cutBefore: from > 0, cutAfter: from + 30 < all.length });
}

const WORDS = ["the", "budget", "review", "moves", "to", "friday,", "and", "we", "ship", "the", "editor.", "Überprüfung", "42"];

function textOf(length: number, seed: number, quokkaAt: number[]): string {
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(quokkaAt.includes(i) ? (i % 2 ? "Quokka," : "quokkas") : WORDS[(i * 7 + seed) % WORDS.length]);
  return words.join(seed % 2 ? " " : "  ");
}

test("the snippet of a note read up to its window is the one read from the whole note", () => {
  const terms: SnippetTerm[][] = [[{ word: "quokka", prefix: true, stems: [] }], [{ word: "quokka", prefix: false, stems: ["quokka"] }], [{ word: "absent", prefix: false, stems: [] }], []];
  let cases = 0;
  for (const length of [0, 1, 5, 29, 30, 31, 37, 38, 39, 60, 61, 62, 200]) {
    const places = [[], [0], [3], [8], [9], [length - 1], [length - 5], [length - 22], [length - 23], [Math.floor(length / 2)], [10, length - 2]].map((p) => p.filter((i) => i >= 0 && i < length));
    for (const [seed, at] of places.entries()) {
      const text = textOf(length, seed, at);
      for (const t of terms) {
        assert.deepEqual(snippet(text, t), wholeReading(text, t), `${length} words, quokka at ${at.join(",")}, terms ${JSON.stringify(t)}`);
        cases += 1;
      }
    }
  }
  assert.ok(cases > 500);
  assert.deepEqual(snippet(" ... ", []), [{ text: " ... ", match: false }]);
});

test("a word at the start of a 480 KB note is found without reading the rest", () => {
  const text = `The quokka budget. ${textOf(80_000, 1, [])}`;
  const parts = snippet(text, [{ word: "quokka", prefix: false, stems: [] }]);
  assert.deepEqual(parts.filter((p) => p.match).map((p) => p.text), ["quokka"]);
  assert.match(parts.at(-1)!.text, /…$/);
});
