// When each word of a note's text is spoken. The text shown is the clean one (the optimizer's, or
// the person's edit), while the times belong to the recognized words: the two are lined up word
// by word (compared without case and punctuation, looking a few words ahead for the next match),
// and a word the clean-up changed or added takes its time between its matched neighbours.

export type TimedWord = { word: string; start: number; end: number };
/** A piece of the text: a word with its time, or what lies between words (spaces, punctuation). */
export type TextToken = { text: string; word: boolean; start: number; end: number };

const WORD = /[\p{L}\p{N}]+(?:['’\-.][\p{L}\p{N}]+)*/gu;
const LOOKAHEAD = 12;

const fold = (word: string) => word.normalize("NFKC").toLocaleLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** The text cut into words and the gaps between them, each word timed from `words` (empty: none timed). */
export function timeText(text: string, words: TimedWord[]): TextToken[] {
  const tokens: TextToken[] = [];
  let last = 0;
  for (const match of text.matchAll(WORD)) {
    if (match.index > last) tokens.push({ text: text.slice(last, match.index), word: false, start: NaN, end: NaN });
    tokens.push({ text: match[0], word: true, start: NaN, end: NaN });
    last = match.index + match[0].length;
  }
  if (last < text.length) tokens.push({ text: text.slice(last), word: false, start: NaN, end: NaN });
  if (!words.length) return tokens;

  // Recognized words, split where their own text has several (a dictionary phrase "New York").
  const heard = words.flatMap((w) => {
    const parts = w.word.match(WORD) ?? [];
    const span = (w.end - w.start) / Math.max(1, parts.length);
    return parts.map((p, i) => ({ key: fold(p), start: w.start + i * span, end: w.start + (i + 1) * span }));
  });
  const shown = tokens.filter((t) => t.word);
  let next = 0;
  for (const token of shown) {
    const key = fold(token.text);
    for (let j = next; j < Math.min(heard.length, next + LOOKAHEAD); j++) {
      if (heard[j].key === key) {
        token.start = heard[j].start;
        token.end = heard[j].end;
        next = j + 1;
        break;
      }
    }
  }
  fillGaps(shown, heard.at(-1)?.end ?? 0);
  return tokens;
}

/** Unmatched words share the time between the matched words around them. */
function fillGaps(shown: TextToken[], total: number): void {
  let i = 0;
  while (i < shown.length) {
    if (!Number.isNaN(shown[i].start)) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < shown.length && Number.isNaN(shown[j].start)) j += 1;
    const from = i > 0 ? shown[i - 1].end : 0;
    const to = j < shown.length ? shown[j].start : Math.max(from, total);
    const step = (to - from) / (j - i);
    for (let k = i; k < j; k++) {
      shown[k].start = from + (k - i) * step;
      shown[k].end = from + (k - i + 1) * step;
    }
    i = j;
  }
}

/** The index (among `tokens`) of the word being spoken at `seconds`, or -1 before the first. */
export function wordAt(tokens: TextToken[], seconds: number): number {
  let found = -1;
  let lo = 0;
  let hi = tokens.length - 1;
  // Words are in time order: the last word that started at or before `seconds`.
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    let m = mid;
    while (m >= lo && !tokens[m].word) m -= 1;
    if (m < lo) {
      lo = mid + 1;
      continue;
    }
    if (tokens[m].start <= seconds) {
      found = m;
      lo = mid + 1;
    } else hi = m - 1;
  }
  return found;
}

/** A note's timed words: the recognizer's, else each segment's words spread over its time. */
export function timedWordsOf(note: { words?: TimedWord[]; segments?: { start: number; end: number; text: string }[] }): TimedWord[] {
  if (note.words?.length) return note.words;
  return (note.segments ?? []).flatMap((segment) => {
    const parts = segment.text.split(/\s+/).filter(Boolean);
    const step = (segment.end - segment.start) / Math.max(1, parts.length);
    return parts.map((word, i) => ({ word, start: segment.start + i * step, end: segment.start + (i + 1) * step }));
  });
}

/** Parts of one recording read as one text: each part's tokens moved to the recording's time line, joined by `separator`. */
export function joinTimed(parts: { text: string; words: TimedWord[]; offset: number }[], separator: string): TextToken[] {
  const joined: TextToken[] = [];
  for (const part of parts.filter((p) => p.text)) {
    if (joined.length) joined.push({ text: separator, word: false, start: NaN, end: NaN });
    for (const token of timeText(part.text, part.words)) joined.push({ ...token, start: token.start + part.offset, end: token.end + part.offset });
  }
  return joined;
}
