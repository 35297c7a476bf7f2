import type { InsightsDraft, InsightsInput, InsightsWriter } from "@/lib/insights/types.ts";
import { ACTION_ITEMS_MAX, INSIGHTS_TITLE_MAX, KEY_POINT_MAX, KEY_POINTS_MAX, SUMMARY_MAX } from "@/lib/insights/schemas.ts";
import { answerTokens } from "@/lib/writer/prompts/answer-tokens.ts";
import { insightsPrompt, writtenInsights } from "@/lib/writer/prompts/insights.ts";
import { listFacts, newFacts } from "@/lib/writer/new-facts.ts";
import { languageName, termsIn } from "@/lib/writer/prompts/parts.ts";
import { writeObject } from "@/lib/writer/writer.ts";

// Insights by the writer (a language model): the same four parts as the offline writer, asked for
// in a fixed form. A failure throws with the writer's reason; composeInsights then writes them
// offline and keeps the reason (`offline_reason`).

const WrittenInsights = writtenInsights({ title: INSIGHTS_TITLE_MAX, summary: SUMMARY_MAX, keyPoints: KEY_POINTS_MAX, actionItems: ACTION_ITEMS_MAX });

export class WriterUnavailable extends Error {
  name = "WriterUnavailable";
}

export function writerInsights(terms: string[] = []): InsightsWriter {
  return {
    name: "writer",
    async write(input: InsightsInput): Promise<InsightsDraft> {
      const { system, prompt } = insightsPrompt({ text: input.text, language: languageName(input.text, input.language), keep: termsIn(terms, input.text) });
      // Key points and action items are sentences of the note: never more than it has.
      const chars = INSIGHTS_TITLE_MAX + SUMMARY_MAX + Math.min(KEY_POINTS_MAX * KEY_POINT_MAX, input.text.length) + Math.ceil(input.text.length / 2);
      const outcome = await writeObject({ schema: WrittenInsights, name: "insights", system, prompt, temperature: 0.2, maxTokens: answerTokens(chars) });
      if (!outcome.ok) throw new WriterUnavailable(outcome.reason);
      const { title, summary, key_points, action_items } = outcome.value;
      const added = newFacts([input.text, ...terms].join("\n"), [title, summary, ...key_points, ...action_items].join("\n"), input.language);
      if (added.length) throw new WriterUnavailable(`the writer's insights said ${listFacts(added)}, which the note does not`);
      return { ...outcome.value, written_by: outcome.by };
    },
  };
}
