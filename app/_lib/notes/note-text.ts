import type { Transcription } from "@/app/_lib/api.ts";
import { presentedTextOf } from "@/lib/notes/store/shown-text.ts";

// Which text a note shows first: the user's edit, else the cleaned-up text, else the recognizer's
// (lib/notes/store/shown-text.ts, the server's rule too).

export const isEdited = (t: Transcription) => t.edited_at !== null;

/** The text a note shows: the rule of lib/notes/store/shown-text.ts. */
export const shownText = (t: Transcription): string => presentedTextOf(t).text;

/** What the recognizer heard, before the dictionary and any edit. */
export function originalText(t: Transcription): string {
  return t.raw_text;
}

const TITLE_MAX = 60;
// Made once per language: a sentence segmenter is costly to build, and lists title every row.
const segmenters = new Map<string, Intl.Segmenter>();
function sentenceSegmenter(locale?: string): Intl.Segmenter | null {
  if (typeof Intl.Segmenter !== "function") return null;
  let segmenter = segmenters.get(locale ?? "");
  if (!segmenter) segmenters.set(locale ?? "", (segmenter = new Intl.Segmenter(locale, { granularity: "sentence" })));
  return segmenter;
}

/**
 * A title from the note's first sentence (of the text shown: the clean text, once there is one),
 * cut at a word boundary near 60 characters, as notes apps do; "Voice note" for an empty note.
 */
export function noteTitle(text: string, locale?: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "Voice note";
  const segmenter = sentenceSegmenter(locale);
  const first = (segmenter ? segmenter.segment(trimmed)[Symbol.iterator]().next().value?.segment : trimmed.split(/(?<=[.!?])\s/)[0]) ?? trimmed;
  const sentence = first.trim().replace(/[.,;:!?。！？]+$/u, "");
  const head = sentence.length <= TITLE_MAX ? sentence : `${sentence.slice(0, TITLE_MAX).replace(/\s+\S*$/u, "")}…`;
  return head.charAt(0).toUpperCase() + head.slice(1);
}

/**
 * A note's name in lists and on its page: the person's own, else its key phrase (insights), else its
 * first sentence. A recording in parts is named by its first part (its own title, its key phrase),
 * else by the first sentence of the parts' joined `text`.
 */
export function titleOf(note: Pick<Transcription, "title" | "insights"> | undefined, text: string): string {
  return note?.title ?? (note?.insights?.title || (text.trim() ? noteTitle(text) : "Voice note (no words recognized)"));
}

/** m:ss (h:mm:ss from an hour), whole seconds. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds + 0.5));
  const pad = (n: number) => String(n).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/** The word under the caret, or the selected words. */
export function pickWord(text: string, start: number, end: number): string {
  return pickWordAt(text, start, end).word;
}

/** The word under the caret, or the selected words, and where it starts in `text`. */
export function pickWordAt(text: string, start: number, end: number): { word: string; at: number } {
  if (end > start) {
    const raw = text.slice(start, end);
    return { word: raw.trim().slice(0, 100), at: start + (raw.length - raw.trimStart().length) };
  }
  const left = text.slice(0, start).match(/[\p{L}\p{N}'’-]*$/u)?.[0] ?? "";
  const right = text.slice(start).match(/^[\p{L}\p{N}'’-]*/u)?.[0] ?? "";
  const whole = left + right;
  const word = whole.replace(/^['’-]+|['’-]+$/g, "");
  return { word, at: start - left.length + (whole.length - whole.replace(/^['’-]+/, "").length) };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Replaces every whole-word occurrence, ignoring case; returns the new text and how many. */
export function replaceWord(text: string, from: string, to: string): { text: string; count: number } {
  let count = 0;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(from)}(?![\\p{L}\\p{N}])`, "giu");
  const next = text.replace(pattern, () => {
    count += 1;
    return to;
  });
  return { text: next, count };
}
