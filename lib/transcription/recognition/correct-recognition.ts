import type { CompiledDictionary } from "@/lib/dictionary/matcher.ts";
import type { Recognition } from "@/lib/transcription/recognizers/types.ts";
import type { Segment, Word } from "@/lib/segment.ts";

/**
 * A recognition with the user's dictionary applied: the text, each segment (its times kept), each
 * segment's words, and how many spans were replaced.
 */
export function correctRecognition(recognition: Recognition, dictionary: CompiledDictionary) {
  const corrected = dictionary.apply(recognition.text);
  const segments = recognition.segments.map((s): Segment => {
    const segment: Segment = { ...s, text: dictionary.apply(s.text).text };
    if (s.words) segment.words = correctWords(s.words, dictionary);
    return segment;
  });
  return { text: corrected.text, replacements: corrected.replacements, segments };
}

/**
 * The dictionary applied to timed words. The words are matched as one text (joined by spaces), so
 * a phrase matches across words exactly as it does in the segment's text. A matched phrase becomes
 * one word spanning its words' times ("cooper" 1.0–1.3 + "netties" 1.3–1.8 → "Kubernetes"
 * 1.0–1.8), keeping what its first and last words had outside the match (a trailing comma); the
 * other words keep their times.
 */
export function correctWords(words: Word[], dictionary: CompiledDictionary): Word[] {
  let text = "";
  const starts: number[] = [];
  for (const [i, w] of words.entries()) {
    if (i) text += " ";
    starts.push(text.length);
    text += w.word;
  }
  const matches = dictionary.matches(text);
  if (!matches.length) return words;
  // The word holding a text offset: the last one starting at or before it.
  const wordAt = (offset: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  // Matches that touch the same words (two inside "don't") merge into one group and one word.
  const groups: { first: number; last: number; matches: typeof matches }[] = [];
  for (const match of matches) {
    const first = wordAt(match.start);
    const last = wordAt(match.end - 1);
    const group = groups.at(-1);
    if (group && first <= group.last) {
      group.last = Math.max(group.last, last);
      group.matches.push(match);
    } else groups.push({ first, last, matches: [match] });
  }
  const result: Word[] = [];
  let next = 0;
  for (const { first, last, matches: inGroup } of groups) {
    result.push(...words.slice(next, first));
    const end = starts[last] + words[last].word.length;
    let word = "";
    let copied = starts[first];
    for (const match of inGroup) {
      word += text.slice(copied, match.start) + match.correctSpelling;
      copied = match.end;
    }
    word += text.slice(copied, end);
    result.push({ word, start: words[first].start, end: words[last].end });
    next = last + 1;
  }
  result.push(...words.slice(next));
  return result;
}
