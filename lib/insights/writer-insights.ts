import { z } from "zod";
import type { InsightsDraft, InsightsInput, InsightsWriter } from "@/lib/insights/types.ts";
import { ACTION_ITEMS_MAX, INSIGHTS_TITLE_MAX, KEY_POINTS_MAX, SUMMARY_MAX } from "@/lib/insights/schemas.ts";
import { listFacts, newFacts } from "@/lib/writer/new-facts.ts";
import { languageName, termsIn } from "@/lib/writer/prompt-parts.ts";
import { writeObject } from "@/lib/writer/writer.ts";

// Insights by the writer (a language model): the same four parts as the offline writer, asked for
// in a fixed form. A failure throws with the writer's reason; composeInsights then writes them
// offline and keeps the reason (`offline_reason`).

const WrittenInsights = z.object({
  title: z.string().describe(`A short title naming what the note is about, at most ${INSIGHTS_TITLE_MAX} characters; never its first words.`),
  summary: z.string().describe(`What the note says, in one to three sentences, at most ${SUMMARY_MAX} characters.`),
  key_points: z.array(z.string()).max(KEY_POINTS_MAX).describe("The note's main points, each one short sentence."),
  action_items: z.array(z.string()).max(ACTION_ITEMS_MAX).describe("What the speaker commits to doing, each as a short to-do; empty when nothing."),
});

export function insightsPrompt(input: InsightsInput & { terms?: string[] }): { system: string; prompt: string } {
  const keep = termsIn(input.terms ?? [], input.text);
  const system = [
    "You read a transcribed voice note and write its title, summary, key points and action items.",
    "Use only what the note says. Action items are things the speaker (or their team) commits to doing; write each as a to-do starting with a verb.",
    `Write in ${languageName(input.text, input.language)}, the note's language.`,
    ...(keep.length ? [`Write these exactly as spelled here: ${keep.join(", ")}.`] : []),
  ].join("\n");
  return { system, prompt: input.text };
}

export class WriterUnavailable extends Error {
  name = "WriterUnavailable";
}

export function writerInsights(terms: string[] = []): InsightsWriter {
  return {
    name: "writer",
    async write(input: InsightsInput): Promise<InsightsDraft> {
      const { system, prompt } = insightsPrompt({ ...input, terms });
      const outcome = await writeObject({ schema: WrittenInsights, name: "insights", system, prompt, temperature: 0.2 });
      if (!outcome.ok) throw new WriterUnavailable(outcome.reason);
      const { title, summary, key_points, action_items } = outcome.value;
      const added = newFacts([input.text, ...terms].join("\n"), [title, summary, ...key_points, ...action_items].join("\n"), input.language);
      if (added.length) throw new WriterUnavailable(`the writer's insights said ${listFacts(added)}, which the note does not`);
      return outcome.value;
    },
  };
}
