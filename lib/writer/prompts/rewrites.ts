import { noteSystem, type NoteTask } from "@/lib/writer/prompts/note.ts";

// The prompt of a rewrite of a note in one style ("Rewrite as…"): the style's name and
// instructions (a built-in's, or the person's own), the note's language, the spellings to keep.

export function rewritePrompt(p: { name: string; instructions: string; language: string; keep: string[]; title: string | null; text: string }): { system: string; prompt: NoteTask } {
  const task = [
    `Task: rewrite the note as: ${p.name}.`,
    p.instructions,
    "Leave out filler words.",
    ...(p.title ? [`The note's title: ${p.title}`] : []),
  ].join("\n");
  return { system: noteSystem({ language: p.language, keep: p.keep }), prompt: { note: p.text, task } };
}
