import type { CleanUp } from "@/lib/clean-up/types.ts";

// The default clean-up: deterministic rules that work offline. One input line is one utterance
// (the recognizer paused after it), so it becomes a sentence; an empty line is a paragraph break.

const FILLERS = new Set(["um", "umm", "uh", "uhh", "erm", "er", "ah", "hmm", "mm", "mhm"]);
const TERMINAL = /[.!?…]["')\]]*$/;

function cleanUtterance(line: string): string {
  const words: string[] = [];
  for (const word of line.split(/\s+/).filter(Boolean)) {
    const bare = word.toLowerCase().replace(/[,.;:!?]+$/, "");
    if (FILLERS.has(bare)) {
      // keep the punctuation the filler carried ("so, um." → "so.")
      const trailing = word.slice(bare.length).replace(/^,+/, "");
      if (trailing && words.length) words[words.length - 1] = words[words.length - 1].replace(/[,;:]+$/, "") + trailing;
      continue;
    }
    const previous = words[words.length - 1];
    if (previous && previous.toLowerCase() === word.toLowerCase() && !/[.!?,]$/.test(previous)) continue; // "the the"
    words.push(word === "i" ? "I" : word.replace(/^i'(m|ve|ll|d)$/i, (_, rest: string) => `I'${rest.toLowerCase()}`));
  }
  return words.join(" ").replace(/^[,;:]+\s*/, "");
}

// A sentence's first letter is capitalized, also behind an opening "¿", "¡" or quote (Spanish,
// French); scripts without case (Japanese, Chinese) are left as they are.
function capitalizeSentences(text: string): string {
  return text.replace(/(^|[.!?…]\s+)([¿¡"'«“(]*)(\p{Ll})/gu, (_, before: string, opening: string, letter: string) => before + opening + letter.toUpperCase());
}

/**
 * Live captions as the note will read once cleaned up (no fillers, no "the the", "I", a capital
 * first letter), without the sentence breaks only the whole recording's utterances give.
 */
export function tidyCaption(text: string): string {
  return capitalizeSentences(cleanUtterance(text));
}

export function cleanUpByRules(input: string): string {
  const paragraphs: string[] = [];
  let sentences: string[] = [];
  const endParagraph = () => {
    if (sentences.length) paragraphs.push(capitalizeSentences(sentences.join(" ")));
    sentences = [];
  };
  for (const line of input.split("\n")) {
    if (!line.trim()) {
      endParagraph();
      continue;
    }
    let sentence = cleanUtterance(line);
    if (!sentence) continue;
    sentence = sentence.replace(/[,;:]+$/, "");
    if (!TERMINAL.test(sentence)) sentence += ".";
    sentences.push(sentence);
  }
  endParagraph();
  return paragraphs.join("\n\n");
}

export const rulesCleanUp: CleanUp = {
  name: "local",
  async clean({ text }) {
    return cleanUpByRules(text);
  },
};
