import { z } from "zod";
import { noteSystem, type NoteTask } from "@/lib/writer/prompts/note.ts";

// The prompt of a note's insights, and the form of the answer (the model's structured output):
// a title, a summary, key points and action items, within the limits the caller gives. Asked of a
// remote writer in one call; of the model on this machine in two (issue 67: in the order the person
// looks): the title and summary first, then, after the posts that started at Stop, the key points
// and to-dos. Both calls read the same note prefix (note.ts).

type Max = { title: number; summary: number; keyPoints: number; actionItems: number };

const parts = (max: Max) => ({
  title: z.string().describe(`A short title naming what the note is about, at most ${max.title} characters; never its first words.`),
  summary: z.string().describe(`What the note says, in one to three sentences, at most ${max.summary} characters.`),
  key_points: z.array(z.string()).max(max.keyPoints).describe("The note's main points, each one short sentence."),
  action_items: z.array(z.string()).max(max.actionItems).describe("What the speaker commits to doing, each as a short to-do; empty when nothing."),
});

/** All four parts, in one answer. */
export function writtenInsights(max: Max) {
  return z.object(parts(max));
}

/** The first of two answers: the title and the summary. */
export function writtenHeadline(max: Max) {
  const { title, summary } = parts(max);
  return z.object({ title, summary });
}

/** The second of two answers: the key points and the to-dos. */
export function writtenDetails(max: Max) {
  const { key_points, action_items } = parts(max);
  return z.object({ key_points, action_items });
}

const TITLE = "a title naming its subject (not its first words)";
const SUMMARY = "a summary of one to three sentences";
const DETAILS = "its key points, and the speaker's own to-dos, each starting with a verb (none if none)";

/** `language`: the note's language by name; `keep`: the person's spellings the note uses; `part`: all four, or one of the two halves. */
export function insightsPrompt({
  text,
  language,
  keep,
  part = "all",
}: {
  text: string;
  language: string;
  keep: string[];
  part?: "all" | "headline" | "details";
}): { system: string; prompt: NoteTask } {
  const task = part === "headline" ? `Task: ${TITLE} and ${SUMMARY}.` : part === "details" ? `Task: ${DETAILS}.` : `Task: ${TITLE}, ${SUMMARY}, ${DETAILS}.`;
  return { system: noteSystem({ language, keep }), prompt: { note: text, task } };
}
