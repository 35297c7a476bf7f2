import { errorFields, log } from "@/lib/log.ts";
import { shownText } from "@/lib/shown-text.ts";
import { composeInsights } from "@/lib/insights/compose-insights.ts";
import type { Insights } from "@/lib/insights/schemas.ts";
import { offlineInsightsWriter } from "@/lib/insights/offline-insights.ts";
import { rewriteInsights } from "@/lib/insights/store-insights.ts";
import type { InsightsWriter } from "@/lib/insights/types.ts";

type NoteBasis = {
  text: string;
  createdAt: Date;
  language: string;
  title: string | null;
  editedAt: Date | null;
  insights: unknown;
  optimization: { status: string; optimizedText: string | null } | null;
};

/**
 * (Re)writes a note's insights from the text it shows, keeping ticks of unchanged items. Never
 * throws: a failure leaves the insights as they were and is logged. Returns what is stored now.
 * Without `writer`, offline (writeNoteInsights adds the writer's, in the background).
 */
export async function refreshInsights({ userId, id, writer }: { userId: string; id: string; writer?: InsightsWriter }): Promise<Insights | null> {
  const started = performance.now();
  try {
    const by = writer ?? offlineInsightsWriter;
    const stored = await rewriteInsights<NoteBasis>({
      userId,
      id,
      read: (client) =>
        client.transcription.findFirst({
          where: { id, userId },
          select: { text: true, createdAt: true, language: true, title: true, editedAt: true, insights: true, optimization: { select: { status: true, optimizedText: true } } },
        }),
      basis: (note) => JSON.stringify([shownText(note), note.language, note.title]),
      write: (note, current) =>
        composeInsights({ input: { text: shownText(note), language: note.language, title: note.title, recordedAt: note.createdAt }, previous: current, writer: by }),
    });
    log.debug("insights written", { transcription_id: id, ms: Math.round(performance.now() - started) });
    return stored;
  } catch (err) {
    log.warn("insights not written", { transcription_id: id, ...errorFields(err) });
    return null;
  }
}
