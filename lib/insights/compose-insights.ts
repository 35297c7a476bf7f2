import { errorFields, log } from "@/lib/log.ts";
import { cutAtWord, offlineInsightsWriter } from "@/lib/insights/offline-insights.ts";
import {
  ACTION_ITEM_MAX,
  ACTION_ITEMS_MAX,
  INSIGHTS_TITLE_MAX,
  KEY_POINT_MAX,
  KEY_POINTS_MAX,
  SUMMARY_MAX,
  type Insights,
} from "@/lib/insights/schemas.ts";
import type { InsightsDraft, InsightsHooks, InsightsInput, InsightsWriter } from "@/lib/insights/types.ts";

/** A writer's text on one line, cut at a word to `max` characters. */
const clean = (text: unknown, max: number) => cutAtWord(String(text ?? "").replace(/\s+/g, " ").trim(), max);

/** What identifies an action item across rewrites: its words, case and punctuation aside. */
export const actionItemKey = (text: string) => text.normalize("NFKC").toLocaleLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

/**
 * Insights written by `writer` (a failing model writer falls back to the offline one), with the
 * ticks of `previous` kept on items whose text is unchanged. Null when no writer succeeded: the
 * caller leaves the stored insights as they were (the failure is logged).
 */
export async function composeInsights({
  input,
  previous,
  writer,
  hooks,
  now = new Date(),
}: {
  input: InsightsInput;
  previous: Insights | null;
  writer: InsightsWriter;
  /** Passed to the writer: the title and summary shown before the rest is written. */
  hooks?: InsightsHooks;
  now?: Date;
}): Promise<Insights | null> {
  let draft: InsightsDraft;
  let writtenBy: Insights["written_by"] = writer.name;
  let offlineReason: string | null = null;
  try {
    draft = await writer.write(input, hooks);
    writtenBy = draft.written_by ?? writer.name;
  } catch (err) {
    log.warn("insights writer failed", { writer: writer.name, ...errorFields(err) });
    if (writer.name === "offline") return null;
    try {
      draft = await offlineInsightsWriter.write(input);
      writtenBy = "offline";
      offlineReason = (err as Error).message || "the writer failed";
    } catch (fallbackErr) {
      log.warn("insights writer failed", { writer: "offline", ...errorFields(fallbackErr) });
      return null;
    }
  }
  const ticked = new Map((previous?.action_items ?? []).map((item) => [actionItemKey(item.text), item.done]));
  const list = (items: unknown, count: number, max: number) =>
    (Array.isArray(items) ? items : []).map((item) => clean(item, max)).filter(Boolean).slice(0, count);
  // A writer may answer a blank title (a small model does, under the grammar): the note is never
  // left without one, the offline writer's names it.
  let title = clean(draft.title, INSIGHTS_TITLE_MAX);
  if (!title && writtenBy !== "offline") title = clean((await offlineInsightsWriter.write(input)).title, INSIGHTS_TITLE_MAX);
  return {
    title: steadyTitle(previous, writtenBy, title, input.text),
    summary: clean(draft.summary, SUMMARY_MAX),
    key_points: list(draft.key_points, KEY_POINTS_MAX, KEY_POINT_MAX),
    action_items: list(draft.action_items, ACTION_ITEMS_MAX, ACTION_ITEM_MAX).map((text) => ({ text, done: ticked.get(actionItemKey(text)) ?? false })),
    written_by: writtenBy,
    offline_reason: offlineReason,
    updated_at: now.toISOString(),
  };
}

/**
 * The insights shown while a writer finishes them: its title and summary over the stored ones (the
 * key points and to-dos stay until its own arrive). Who wrote them stays the stored ones' writer.
 */
export function withHeadline(stored: Insights, headline: { title: string; summary: string }): Insights {
  const title = clean(headline.title, INSIGHTS_TITLE_MAX);
  const summary = clean(headline.summary, SUMMARY_MAX);
  return { ...stored, ...(title && { title }), ...(summary && { summary }) };
}

const wordsOf = (text: string) => text.normalize("NFKC").toLocaleLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

/**
 * A note's title does not flip with each edit (issue 56: "Blows Young" → "John Guess" → "Blows
 * Young", while its posts kept "John Guess"): the title written before by the same writer stays
 * while the text still says it, in its order; a new one comes when it no longer does.
 */
function steadyTitle(previous: Insights | null, writtenBy: string, title: string, text: string): string {
  const before = previous?.title;
  if (!before || previous.written_by !== writtenBy || before === title) return title;
  return ` ${wordsOf(text)} `.includes(` ${wordsOf(before)} `) ? before : title;
}
