import { matchedPairs } from "@/lib/dictionary/word-diff.ts";
import { computeTask } from "@/lib/compute/task.ts";

// A model's clean-up replaces what the person said only when it keeps it. The clean-up's words
// are aligned with the recognized words (a longest common subsequence, case and punctuation
// aside); fillers ("um", "euh") and a word said twice may go, everything else must stay in order.
// The thresholds were set on the 20-note corpus (tests/unit/clean-up-guard.test.ts prints the
// table): a true clean-up there drops and adds nothing but fillers and repeats, or 2 words each
// for two corrections (15 % of the shortest note: the small-changes allowance). Every wrong one has
// a run of at least 6 words dropped or added (a greeting 6, an answer 17, a left-out sentence 6–34,
// an unrelated text 13–72), so a run of 4 refuses them all; the shares catch scattered rewording.

/** At most this share of the recognized words may be dropped or replaced… */
export const DROPPED_MAX = 0.12;
/** …and at most this share added… */
export const ADDED_MAX = 0.12;
/** …never more than this many in a row (a sentence, a preamble, an answer)… */
export const RUN_MAX = 3;
/** …and a short text may always have this many small corrections. */
const SMALL_CHANGES = 2;

const FILLERS = new Set([
  // Sounds no one means to write down (English, German, French, Spanish, Italian).
  "um", "umm", "uh", "uhh", "uhm", "erm", "er", "ah", "hmm", "hm", "mm", "mhm",
  "äh", "ähm", "öh", "öhm", "euh", "heu", "eh", "ehm", "em",
]);

/** The words of a text as the guard compares them: lower case, no punctuation, apostrophes unified. */
export function wordsOf(text: string): string[] {
  return (text.normalize("NFC").toLowerCase().replace(/[’‘]/g, "'").match(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu) ?? []);
}

/** The recognized words the clean-up must keep: without fillers and a word said twice in a row. */
function spokenWords(text: string): string[] {
  const words: string[] = [];
  for (const word of wordsOf(text)) {
    if (FILLERS.has(word) || words[words.length - 1] === word) continue;
    words.push(word);
  }
  return words;
}

export type CleanUpVerdict = {
  kept: boolean;
  /** Recognized words (fillers and repeats aside), and how many of them the clean-up dropped or replaced. */
  spoken: number;
  dropped: number;
  /** Words the clean-up has that were not said. */
  added: number;
  /** The longest run of consecutive dropped, and of added, words. */
  longestDrop: number;
  longestAdd: number;
  /** Why it was refused, in plain words; null when kept. */
  reason: string | null;
};

function longestRun(matched: number[], length: number): number {
  let longest = 0;
  let previous = -1;
  for (const index of [...matched, length]) {
    longest = Math.max(longest, index - previous - 1);
    previous = index;
  }
  return longest;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Whether a clean-up of `recognized` keeps what was said (see the rules above). */
export function judgeCleanUp(recognized: string, cleaned: string): CleanUpVerdict {
  const said = spokenWords(recognized);
  const written = wordsOf(cleaned).filter((w) => !FILLERS.has(w));
  const pairs = matchedPairs(said, written) ?? [];
  const matched = pairs.length;
  const dropped = said.length - matched;
  const added = written.length - matched;
  const longestDrop = longestRun(pairs.map(([a]) => a), said.length);
  const longestAdd = longestRun(pairs.map(([, b]) => b), written.length);
  const allowance = (share: number) => Math.max(SMALL_CHANGES, Math.floor(share * said.length));
  let reason: string | null = null;
  if (said.length && !written.length) reason = "it came back empty";
  else if (dropped > allowance(DROPPED_MAX) || longestDrop > RUN_MAX)
    reason = `it left out ${plural(dropped, "word")} of the ${said.length} you said`;
  else if (added > allowance(ADDED_MAX) || longestAdd > RUN_MAX) reason = `it added ${plural(added, "word")} you did not say`;
  return { kept: reason === null, spoken: said.length, dropped, added, longestDrop, longestAdd, reason };
}

export type WordChange = { recognized: string; cleaned: string };

/**
 * What a clean-up changed, word by word (case and punctuation aside): each run of recognized words
 * it dropped or replaced, with what it wrote instead ("" when it only dropped them).
 */
export function wordChanges(recognized: string, cleaned: string, max = 200): WordChange[] {
  const a = wordsOf(recognized);
  const b = wordsOf(cleaned);
  const pairs = matchedPairs(a, b) ?? [];
  const changes: WordChange[] = [];
  let i = 0;
  let j = 0;
  for (const [x, y] of [...pairs, [a.length, b.length] as [number, number]]) {
    if (x > i || y > j) changes.push({ recognized: a.slice(i, x).join(" "), cleaned: b.slice(j, y).join(" ") });
    i = x + 1;
    j = y + 1;
    if (changes.length >= max) break;
  }
  return changes;
}

type Compared = { recognized: string; cleaned: string };
/** The verdict and the changes, in the compute pool (lib/compute): whole notes aligned word by word. */
export const judgeCleanUpTask = computeTask("judgeCleanUp", ({ recognized, cleaned }: Compared) => judgeCleanUp(recognized, cleaned));
export const wordChangesTask = computeTask("wordChanges", ({ recognized, cleaned }: Compared) => wordChanges(recognized, cleaned));
