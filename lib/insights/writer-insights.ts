import type { z } from "zod";
import type { InsightsDraft, InsightsInput, InsightsWriter } from "@/lib/insights/types.ts";
import { ACTION_ITEMS_MAX, INSIGHTS_TITLE_MAX, KEY_POINT_MAX, KEY_POINTS_MAX, SUMMARY_MAX } from "@/lib/insights/schemas.ts";
import { answerTokens } from "@/lib/writer/prompts/answer-tokens.ts";
import { insightsPrompt, writtenInsights } from "@/lib/writer/prompts/insights.ts";
import { languageName, termsIn } from "@/lib/writer/prompts/parts.ts";
import { writeObject } from "@/lib/writer/writer.ts";

// Insights by the writer (a language model): the same four parts as the offline writer, asked for
// in a fixed form. A failure throws with the writer's reason; composeInsights then writes them
// offline and keeps the reason (`offline_reason`).

const WrittenInsights = writtenInsights({ title: INSIGHTS_TITLE_MAX, summary: SUMMARY_MAX, keyPoints: KEY_POINTS_MAX, actionItems: ACTION_ITEMS_MAX });

export class WriterUnavailable extends Error {
  name = "WriterUnavailable";
}

/** `noteId`: the note they are of, so the writer's outcome is counted for it (Settings → Writing). */
export function writerInsights(terms: string[] = [], noteId?: string): InsightsWriter {
  return {
    name: "writer",
    async write(input: InsightsInput): Promise<InsightsDraft> {
      const { system, prompt } = insightsPrompt({ text: input.text, language: languageName(input.text, input.language), keep: termsIn(terms, input.text) });
      // Key points and action items are sentences of the note: never more than it has.
      const chars = INSIGHTS_TITLE_MAX + SUMMARY_MAX + Math.min(KEY_POINTS_MAX * KEY_POINT_MAX, input.text.length) + Math.ceil(input.text.length / 2);
      // Every part passes the check every model output passes (lib/writer/check-output.ts): words
      // of the note, in its language, no name or number it does not have.
      const check = {
        what: "insights",
        source: input.text,
        given: [input.title ?? "", ...terms],
        language: input.language,
        parts: (v: z.output<typeof WrittenInsights>) => [
          { name: "title", text: v.title },
          { name: "summary", text: v.summary },
          ...v.key_points.map((text) => ({ name: "key point", text })),
          ...v.action_items.map((text) => ({ name: "to-do", text })),
        ],
      };
      const outcome = await writeObject({ schema: WrittenInsights, name: "insights", system, prompt, temperature: 0.2, maxTokens: answerTokens(chars), task: "insights", key: noteId, check });
      if (!outcome.ok) throw new WriterUnavailable(outcome.reason);
      return { ...outcome.value, written_by: outcome.by };
    },
  };
}
