import type { Segment, Word } from "@/lib/segment.ts";

/** Every segment's words, in order (empty when the engine gave none). */
export function flattenWords(segments: readonly Segment[]): Word[] {
  return segments.flatMap((s) => s.words ?? []);
}

/**
 * Gives each segment the words that were spoken in it, from one ordered list of timed words (an
 * OpenAI-compatible server's `words`, or a response's flattened `words`). A word belongs to the
 * segment its midpoint falls in, walking both lists in order, so a word a few milliseconds over a
 * boundary still lands in one segment and every word lands in exactly one; words past the last
 * segment go to the last one.
 */
export function assignWords(segments: readonly Segment[], words: readonly Word[]): Segment[] {
  const result: Segment[] = segments.map((s) => ({ start: s.start, end: s.end, text: s.text, words: [] as Word[] }));
  if (!result.length) return result;
  let current = 0;
  for (const word of words) {
    const middle = (word.start + word.end) / 2;
    while (current < result.length - 1 && middle >= result[current + 1].start && middle > result[current].end) current++;
    result[current].words!.push(word);
  }
  return result;
}
