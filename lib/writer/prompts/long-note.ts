import { rankUnits, unitsOf, type Unit } from "@/lib/writer/sentences.ts";

// A note longer than the model on this machine can read at once (its context holds 4,096 tokens:
// about 3,000 words, twenty minutes of speech) is not handed to the rules for its length: the model
// reads the note's strongest sentences, in the note's order, as many as fit. Each part of the note
// (PART_UNITS sentences) is ranked on its own (TextRank, sentences.ts), so every part of a long talk
// keeps its share and the ranking stays linear in the note's length. Not the model's own summaries
// of the parts: reading is the cost on a small machine (about 18 tokens a second on two cores), so
// summarizing a 6,000-token note's parts would take six minutes before its first task began.
// For the tasks that can be written from the main sentences (insights, posts, rewrites); the
// clean-up copies all of a note and an answer cites it, so those are refused as too long instead.

const PART_UNITS = 300;
/** Speech a recognizer left unpunctuated is one "sentence" per paragraph: cut into pieces of this many words. */
const PIECE_WORDS = 40;
export const LONG_NOTE_HEAD = "(A long note: its main sentences, in order.)";

/** Units of at most PIECE_WORDS + 20 words: a longer one is cut into PIECE_WORDS-word pieces. */
function pieces(units: Unit[]): Unit[] {
  return units.flatMap((unit) => {
    const words = unit.text.split(/\s+/);
    if (words.length <= PIECE_WORDS + 20) return [unit];
    const out: Unit[] = [];
    for (let i = 0; i < words.length; i += PIECE_WORDS) out.push({ ...unit, text: words.slice(i, i + PIECE_WORDS).join(" ") });
    return out;
  });
}

/** `text` as it is when `fits` it; else its strongest sentences, in order, as many as fit (under LONG_NOTE_HEAD). */
export function noteThatFits(text: string, fits: (text: string) => boolean): string {
  if (fits(text)) return text;
  const units = pieces(unitsOf(text));
  const scored: { index: number; rank: number }[] = [];
  for (let start = 0; start < units.length; start += PART_UNITS) {
    rankUnits(units.slice(start, start + PART_UNITS)).forEach((rank, i) => scored.push({ index: start + i, rank }));
  }
  const order = scored.sort((a, b) => b.rank - a.rank || a.index - b.index).map((s) => s.index);
  const compose = (count: number) => {
    const kept = order.slice(0, count).sort((a, b) => a - b);
    const body = kept.map((index, i) => (i === 0 ? "" : units[kept[i - 1]].paragraph === units[index].paragraph ? " " : "\n\n") + units[index].text).join("");
    return `${LONG_NOTE_HEAD}\n\n${body}`;
  };
  // The most sentences that fit (fits is monotone in how many are kept).
  let low = 0;
  let high = order.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(compose(mid))) low = mid;
    else high = mid - 1;
  }
  return compose(low);
}
