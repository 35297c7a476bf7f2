import { z } from "zod";
import { noteSystem, type NoteTask } from "@/lib/writer/prompts/note.ts";

// The prompt of a note's insights, and the form of the answer (the model's structured output):
// a title, a summary, key points and action items, within the limits the caller gives.

export function writtenInsights(max: { title: number; summary: number; keyPoints: number; actionItems: number }) {
  return z.object({
    title: z.string().describe(`A short title naming what the note is about, at most ${max.title} characters; never its first words.`),
    summary: z.string().describe(`What the note says, in one to three sentences, at most ${max.summary} characters.`),
    key_points: z.array(z.string()).max(max.keyPoints).describe("The note's main points, each one short sentence."),
    action_items: z.array(z.string()).max(max.actionItems).describe("What the speaker commits to doing, each as a short to-do; empty when nothing."),
  });
}

/** `language`: the note's language by name; `keep`: the person's spellings the note uses. */
export function insightsPrompt({ text, language, keep }: { text: string; language: string; keep: string[] }): { system: string; prompt: NoteTask } {
  const task = "Task: a title naming its subject (not its first words), a summary of one to three sentences, its key points, and the speaker's own to-dos, each starting with a verb (none if none).";
  return { system: noteSystem({ language, keep }), prompt: { note: text, task } };
}
