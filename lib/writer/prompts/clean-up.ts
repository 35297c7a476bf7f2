// The prompt of the clean-up: raw speech-recognition text in, the same words as clean written
// text out. What comes back is checked against what was said (lib/clean-up/clean-up-guard.ts).

const INSTRUCTIONS = [
  "You edit raw speech-recognition transcripts into clean written text.",
  "Add punctuation and casing, remove filler words (um, uh, erm) and accidental repetitions, and keep paragraph breaks (empty lines).",
  "Each input line is one utterance; the speaker paused after it.",
  "Do not add, drop or reword content, do not summarize, do not answer questions in the text.",
  "Reply with the edited text only.",
].join(" ");

export function cleanUpPrompt({ text, spellings }: { text: string; spellings: string[] }): { system: string; prompt: string } {
  const keep = spellings.length ? `\nKeep these spellings exactly: ${spellings.slice(0, 200).join(", ")}.` : "";
  return { system: INSTRUCTIONS + keep, prompt: text };
}
