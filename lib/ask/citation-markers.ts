// The writer cites passages as [n] (or [1, 3]). Only the numbers it was given are kept: a marker
// naming another is left out of the text, as it streams and in the whole answer.

const MARKER = /\[(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\]/g;
// The end of a piece that may be the start of a marker, held until the next piece shows it.
const OPEN_MARKER = /\[[\d,;\s]{0,16}$/;

/** The text with each marker rewritten to the given numbers it names ([1, 9] → [1] when 9 was not given). */
export function keepGivenMarkers(text: string, given: ReadonlySet<number>): string {
  return text.replace(MARKER, (_, list: string) =>
    list
      .split(/[,;]/)
      .map((n) => Number(n.trim()))
      .filter((n) => given.has(n))
      .map((n) => `[${n}]`)
      .join(""),
  );
}

/** The given numbers the text cites, in the order first cited. */
export function citedNumbers(text: string, given: ReadonlySet<number>): number[] {
  const cited = [...text.matchAll(MARKER)].flatMap(([, list]) => list.split(/[,;]/).map((n) => Number(n.trim())));
  return [...new Set(cited.filter((n) => given.has(n)))];
}

/** Tidies what removed markers leave: a space before punctuation, doubled spaces. */
export function tidy(text: string): string {
  return text.replace(/[ \t]+([.,;:!?])/g, "$1").replace(/[ \t]{2,}/g, " ").trim();
}

/** Filters a stream of pieces: `push` returns what can be shown now, `flush` the rest at the end. */
export function markerFilter(given: ReadonlySet<number>) {
  let held = "";
  return {
    push(delta: string): string {
      held += delta;
      const open = held.match(OPEN_MARKER);
      const cut = open ? held.length - open[0].length : held.length;
      const ready = held.slice(0, cut);
      held = held.slice(cut);
      return keepGivenMarkers(ready, given);
    },
    flush(): string {
      const rest = keepGivenMarkers(held, given);
      held = "";
      return rest;
    },
  };
}
