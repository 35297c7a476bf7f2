import { z } from "zod";

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
export function insightsPrompt({ text, language, keep }: { text: string; language: string; keep: string[] }): { system: string; prompt: string } {
  const system = [
    "You read a transcribed voice note and write its title, summary, key points and action items.",
    "Use only what the note says. Action items are things the speaker (or their team) commits to doing; write each as a to-do starting with a verb.",
    `Write in ${language}, the note's language.`,
    ...(keep.length ? [`Write these exactly as spelled here: ${keep.join(", ")}.`] : []),
  ].join("\n");
  return { system, prompt: text };
}
