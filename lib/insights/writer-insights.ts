import type { z } from "zod";
import type { InsightsDraft, InsightsHooks, InsightsInput, InsightsWriter } from "@/lib/insights/types.ts";
import { ACTION_ITEMS_MAX, INSIGHTS_TITLE_MAX, KEY_POINT_MAX, KEY_POINTS_MAX, SUMMARY_MAX } from "@/lib/insights/schemas.ts";
import { answerTokens } from "@/lib/writer/prompts/answer-tokens.ts";
import { insightsPrompt, writtenDetails, writtenHeadline, writtenInsights } from "@/lib/writer/prompts/insights.ts";
import { writerProvider } from "@/lib/writer/providers.ts";
import { languageName, termsIn } from "@/lib/writer/prompts/parts.ts";
import { writeObject } from "@/lib/writer/writer.ts";

// Insights by the writer (a language model): the same four parts as the offline writer, asked for
// in a fixed form. A failure throws with the writer's reason; composeInsights then writes them
// offline and keeps the reason (`offline_reason`).

const MAX = { title: INSIGHTS_TITLE_MAX, summary: SUMMARY_MAX, keyPoints: KEY_POINTS_MAX, actionItems: ACTION_ITEMS_MAX };
const WrittenInsights = writtenInsights(MAX);
const WrittenHeadline = writtenHeadline(MAX);
const WrittenDetails = writtenDetails(MAX);
type Written = z.output<typeof WrittenInsights>;

export class WriterUnavailable extends Error {
  name = "WriterUnavailable";
}

/**
 * `noteId`: the note they are of, so the writer's outcome is counted for it (Settings → Writing).
 * The model on this machine writes them in two calls, in the order the person looks (issue 67): the
 * title and summary (handed to `onHeadline` at once, to be shown), then the key points and to-dos,
 * whose turn comes after the posts that started at Stop. A remote writer answers all four at once.
 */
export function writerInsights(terms: string[] = [], noteId?: string): InsightsWriter {
  return {
    name: "writer",
    async write(input: InsightsInput, { onHeadline }: InsightsHooks = {}): Promise<InsightsDraft> {
      const language = languageName(input.text, input.language);
      const keep = termsIn(terms, input.text);
      // Key points and action items are sentences of the note: never more than it has.
      const detailChars = Math.min(KEY_POINTS_MAX * KEY_POINT_MAX, input.text.length) + Math.ceil(input.text.length / 2);
      // Every part passes the check every model output passes (lib/writer/check-output.ts): words
      // of the note, in its language, no name or number it does not have.
      const check = {
        what: "insights",
        source: input.text,
        given: [input.title ?? "", ...terms],
        language: input.language,
        parts: (v: Partial<Written>) => [
          ...(v.title !== undefined ? [{ name: "title", text: v.title }] : []),
          ...(v.summary !== undefined ? [{ name: "summary", text: v.summary }] : []),
          ...(v.key_points ?? []).map((text) => ({ name: "key point", text })),
          ...(v.action_items ?? []).map((text) => ({ name: "to-do", text })),
        ],
      };
      const ask = { temperature: 0.2, task: "insights" as const, key: noteId, check };
      if (writerProvider()?.kind !== "local") {
        const { system, prompt } = insightsPrompt({ text: input.text, language, keep });
        const outcome = await writeObject({ schema: WrittenInsights, name: "insights", system, prompt, maxTokens: answerTokens(INSIGHTS_TITLE_MAX + SUMMARY_MAX + detailChars), ...ask });
        if (!outcome.ok) throw new WriterUnavailable(outcome.reason);
        return { ...outcome.value, written_by: outcome.by };
      }
      const first = insightsPrompt({ text: input.text, language, keep, part: "headline" });
      const headline = await writeObject({ schema: WrittenHeadline, name: "insights", ...first, maxTokens: answerTokens(INSIGHTS_TITLE_MAX + SUMMARY_MAX), ...ask });
      if (!headline.ok) throw new WriterUnavailable(headline.reason);
      await onHeadline?.({ ...headline.value, written_by: headline.by });
      const second = insightsPrompt({ text: input.text, language, keep, part: "details" });
      const details = await writeObject({ schema: WrittenDetails, name: "insights", ...second, maxTokens: answerTokens(detailChars), ...ask });
      if (!details.ok) throw new WriterUnavailable(details.reason);
      return { ...headline.value, ...details.value, written_by: details.by };
    },
  };
}
