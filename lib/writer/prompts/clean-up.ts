import { noteSystem, type NoteTask } from "@/lib/writer/prompts/note.ts";
import { languageName } from "@/lib/writer/prompts/parts.ts";

// The prompt of the clean-up: raw speech-recognition text in, the same words as clean written
// text out. What comes back is checked against what was said (lib/clean-up/clean-up-guard.ts).

const TASK = [
  "Task: edit the note, a raw speech-recognition transcript, into clean written text.",
  "Add punctuation and casing, remove filler words (um, uh, erm) and accidental repetitions, and keep paragraph breaks (empty lines).",
  "Each line of the note is one utterance; the speaker paused after it.",
  "Do not add, drop or reword content, do not summarize, do not answer questions in the text.",
  "Reply with the edited text only.",
].join(" ");

export function cleanUpPrompt({ text, spellings }: { text: string; spellings: string[] }): { system: string; prompt: NoteTask } {
  return { system: noteSystem({ language: languageName(text), keep: spellings.slice(0, 200) }), prompt: { note: text, task: TASK } };
}
