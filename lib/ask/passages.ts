import type { Segment } from "@/lib/notes/segment.ts";

// A note cut into passages an answer can quote and a player can seek to: its sentences, each with
// the time it is spoken. Times come from the recognizer's segments (and their timed words, when
// the engine gave them); a note edited since, or without segments, is quoted from its text without
// times, since an edit's sentences no longer line up with what was said.

export type Passage = { text: string; start: number | null; end: number | null; order: number };

// A recognizer without punctuation (PocketSphinx) makes one "sentence" of a whole segment: it is
// quoted in pieces of this many words, short enough to read on a card and to seek to.
const LONGEST = 40;
const PIECE = 24;
const SENTENCE = /[^.!?…。！？]+(?:[.!?…。！？]+["'”’)\]]*|$)\s*/gu;

/** The sentences of a text, long ones cut into pieces; each as its span of whitespace-separated tokens. */
function sentencesOf(text: string): { text: string; from: number; to: number }[] {
  const out: { text: string; from: number; to: number }[] = [];
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

/** The note's passages, in the order spoken. */
export function passagesOf(note: { text: string; segments: unknown; editedAt: Date | null }): Passage[] {
  const segments = Array.isArray(note.segments) ? (note.segments as Segment[]) : [];
  if (note.editedAt || !segments.length) return sentencesOf(note.text).map((s, order) => ({ text: s.text, start: null, end: null, order }));
  const passages: Passage[] = [];
  for (const segment of segments) {
    const total = segment.text.split(/\s+/u).filter(Boolean).length;
    const words = segment.words ?? [];
    // The words line up with the text's tokens when there are as many (the usual case); else the
    // time is the sentence's share of the segment.
    const timed = words.length === total && total > 0;
    const span = segment.end - segment.start;
    for (const s of sentencesOf(segment.text)) {
      const start = timed ? words[s.from].start : segment.start + (span * s.from) / Math.max(1, total);
      const end = timed ? words[s.to - 1].end : segment.start + (span * s.to) / Math.max(1, total);
      passages.push({ text: s.text, start: round(start), end: round(end), order: passages.length });
    }
  }
  return passages;
}

const round = (seconds: number) => Math.round(seconds * 100) / 100;
