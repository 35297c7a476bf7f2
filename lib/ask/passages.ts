import type { Segment } from "@/lib/segment.ts";
import { matchedPairs } from "@/lib/dictionary/word-diff.ts";
import { wordsOf } from "@/lib/clean-up/clean-up-guard.ts";
import { shownText } from "@/lib/notes/store/shown-text.ts";

// A note cut into passages an answer can quote and a player can seek to: the sentences of the
// text the note shows (the person's edit, else the clean-up, else the recognized text), each with
// the time it is spoken. The times belong to the recognized words (the segments' timed words, or
// each segment's words spread over its time), so the shown words are lined up with them as the
// clean-up guard lines up a clean-up (the same longest common subsequence, case and punctuation
// aside): a sentence runs from its first matched word's start to its last one's end. An edit
// that fixed a word, or was undone, keeps every other word's moment; a sentence only typed in
// takes the moment between its neighbours. A typed note, or an edit too far from what was said
// to line up, is quoted without times.

export type Passage = { text: string; start: number | null; end: number | null; order: number };

// A recognizer without punctuation (PocketSphinx) makes one "sentence" of a whole recording: it is
// quoted in pieces of this many words, short enough to read on a card and to seek to.
const LONGEST = 40;
const PIECE = 24;
const SENTENCE = /[^.!?…。！？]+(?:[.!?…。！？]+["'”’)\]]*|$)\s*/gu;

type Span = { text: string; from: number; to: number };
type Heard = { key: string; start: number; end: number };

/** The sentences of a text, long ones cut into pieces; each as its span of whitespace-separated tokens. */
function sentencesOf(text: string): Span[] {
  const out: Span[] = [];
  let at = 0;
  for (const [raw] of text.matchAll(SENTENCE)) {
    const tokens = raw.split(/\s+/u).filter(Boolean);
    for (let i = 0; i < tokens.length; i += tokens.length > LONGEST ? PIECE : tokens.length) {
      const piece = tokens.slice(i, tokens.length > LONGEST ? i + PIECE : tokens.length);
      if (piece.some((t) => /[\p{L}\p{N}]/u.test(t))) out.push({ text: piece.join(" "), from: at + i, to: at + i + piece.length });
    }
    at += tokens.length;
  }
  return out;
}

/** The recognized words with their times, as the guard compares words (a dictionary phrase's time shared by its words). */
function heardWords(segments: Segment[]): Heard[] {
  return segments.flatMap((segment) => {
    const tokens = segment.text.split(/\s+/u).filter(Boolean);
    const step = (segment.end - segment.start) / Math.max(1, tokens.length);
    const timed = segment.words?.length ? segment.words : tokens.map((word, i) => ({ word, start: segment.start + i * step, end: segment.start + (i + 1) * step }));
    return timed.flatMap((w) => {
      const keys = wordsOf(w.word);
      const share = (w.end - w.start) / Math.max(1, keys.length);
      return keys.map((key, i) => ({ key, start: w.start + i * share, end: w.start + (i + 1) * share }));
    });
  });
}

/** A stored note's passages, in the order spoken. */
export const passagesOf = (note: Parameters<typeof shownText>[0] & { segments: unknown }): Passage[] => passagesOfText(shownText(note), note.segments);

/** The passages of the text a note shows (as shownText or its SQL twin gives it), timed by its recognized segments. */
export function passagesOfText(text: string, segments: unknown): Passage[] {
  const sentences = sentencesOf(text);
  const untimed = () => sentences.map((s, order) => ({ text: s.text, start: null, end: null, order }));
  const heard = heardWords(Array.isArray(segments) ? (segments as Segment[]) : []);
  if (!heard.length) return untimed();
  // The shown words, each with the whitespace token it is in (the sentences' spans count tokens).
  const shown = text
    .split(/\s+/u)
    .filter(Boolean)
    .flatMap((token, t) => wordsOf(token).map((key) => ({ key, token: t })));
  const pairs = matchedPairs(
    heard.map((h) => h.key),
    shown.map((s) => s.key),
  );
  if (!pairs?.length) return untimed();
  // Each matched shown word (in order) with its time; the sentences walk it once.
  const said = pairs.map(([h, s]) => ({ token: shown[s].token, ...heard[h] }));
  let next = 0;
  return sentences.map((sentence, order) => {
    while (next < said.length && said[next].token < sentence.from) next += 1;
    let last = next;
    while (last < said.length && said[last].token < sentence.to) last += 1;
    if (last > next) return { text: sentence.text, start: round(said[next].start), end: round(said[last - 1].end), order };
    // Nothing in it was said: the moment between the words said around it.
    const before = said[next - 1];
    const after = said[next];
    const start = before ? before.end : after.start;
    return { text: sentence.text, start: round(start), end: round(after ? after.start : start), order };
  });
}

const round = (seconds: number) => Math.round(seconds * 100) / 100;
