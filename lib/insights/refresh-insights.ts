import { errorFields, log } from "@/lib/log.ts";
import { shownText } from "@/lib/notes/store/shown-text.ts";
import { composeInsights, withHeadline } from "@/lib/insights/compose-insights.ts";
import type { Insights } from "@/lib/insights/schemas.ts";
import { offlineInsightsWriter } from "@/lib/insights/offline-insights.ts";
import { insightsBasis, type InsightsBasisNote } from "@/lib/insights/insights-basis.ts";
import { insightsMarks, markWriterQueued, rewriteInsights, showInsightsHeadline } from "@/lib/insights/store-insights.ts";
import type { InsightsWriter } from "@/lib/insights/types.ts";
import { findOwnedNote } from "@/lib/notes/store/owned-note.ts";

type NoteBasis = InsightsBasisNote & { createdAt: Date; title: string | null; insights: unknown };

/**
 * (Re)writes a note's insights from the text it shows, keeping ticks of unchanged items. Never
 * throws: a failure leaves the insights as they were and is logged. Returns what is stored now.
 * Without `writer`, offline (writeNoteInsights adds the writer's, in the background), and never
 * over a writer's insights of the same text (those stay: a rule-written summary would replace a
 * model's for nothing). `writerQueued`: the writer's follow (insights_pending until they land);
 * a writer's insights of the text before then stay until they do (issue 69 item 6: offline ones in
 * between changed the title twice in seconds after "Text improved"), and `ofThisText` is false.
 */
export async function refreshInsights({
  userId,
  id,
  writer,
  writerQueued = false,
}: {
  userId: string;
  id: string;
  writer?: InsightsWriter;
  writerQueued?: boolean;
}): Promise<{ insights: Insights | null; ofThisText: boolean }> {
  const started = performance.now();
  let kept = false;
  try {
    const by = writer ?? offlineInsightsWriter;
    const stored = await rewriteInsights<NoteBasis>({
      userId,
      id,
      read: (tx) =>
        findOwnedNote(
          { userId, id, tx },
          { text: true, createdAt: true, language: true, title: true, editedAt: true, insights: true, optimization: { select: { status: true, optimizedText: true } } },
        ),
      basis: insightsBasis,
      write: async (note, current) => {
        // A writer's insights are never replaced by offline ones: of this text they stay; of the
        // text before, they stay while the writer's of this one are on their way.
        if (!writer && current && current.written_by !== "offline") {
          if (insightsMarks(note.insights).basis === insightsBasis(note)) return null;
          if (writerQueued) {
            kept = true;
            return null;
          }
        }
        // A writer that writes the title and summary first: they are shown at once, the rest follows.
        const onHeadline = async (headline: { title: string; summary: string }) =>
          showInsightsHeadline({ userId, id, basis: insightsBasis(note), show: (stored) => withHeadline(stored, headline) });
        return composeInsights({
          input: { text: shownText(note), language: note.language, title: note.title, recordedAt: note.createdAt },
          previous: current,
          writer: by,
          hooks: writer ? { onHeadline } : undefined,
        });
      },
      writerQueued,
    });
    if (kept) return { insights: await markWriterQueued({ userId, id }), ofThisText: false };
    log.debug("insights written", { transcription_id: id, ms: Math.round(performance.now() - started) });
    return { insights: stored, ofThisText: true };
  } catch (err) {
    log.warn("insights not written", { transcription_id: id, ...errorFields(err) });
    return { insights: null, ofThisText: false };
  }
}
