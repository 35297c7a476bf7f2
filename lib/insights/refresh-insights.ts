import { db } from "@/lib/db/client.ts";
import { errorFields, log } from "@/lib/log.ts";
import { composeInsights } from "@/lib/insights/compose-insights.ts";
import type { Insights } from "@/lib/insights/schemas.ts";
import { offlineInsightsWriter } from "@/lib/insights/offline-insights.ts";
import { updateInsights } from "@/lib/insights/store-insights.ts";
import type { InsightsWriter } from "@/lib/insights/types.ts";

type NoteBasis = {
  text: string;
  language: string;
  title: string | null;
  editedAt: Date | null;
  insights: unknown;
  optimization: { status: string; optimizedText: string | null } | null;
};

/** The text the person sees: their edit, else the completed clean-up, else the recognized text. */
export function shownText(note: Pick<NoteBasis, "text" | "editedAt" | "optimization">): string {
  if (note.editedAt) return note.text;
  const clean = note.optimization?.status === "completed" ? note.optimization.optimizedText : null;
  return clean?.trim() ? clean : note.text;
}

/**
 * (Re)writes a note's insights from the text it shows, keeping ticks of unchanged items. Never
 * throws: a failure leaves the insights as they were and is logged. Returns what is stored now.
 * Without `writer`, offline (writeNoteInsights adds the writer's, in the background).
 */
export async function refreshInsights({ userId, id, writer }: { userId: string; id: string; writer?: InsightsWriter }): Promise<Insights | null> {
  const started = performance.now();
  try {
    const prisma = await db();
    const by = writer ?? offlineInsightsWriter;
    const stored = await updateInsights<NoteBasis>({
      userId,
      id,
      read: () =>
        prisma.transcription.findFirst({
          where: { id, userId },
          select: { text: true, language: true, title: true, editedAt: true, insights: true, optimization: { select: { status: true, optimizedText: true } } },
        }),
      compute: (note, current) =>
        composeInsights({ input: { text: shownText(note), language: note.language, title: note.title }, previous: current, writer: by }),
    });
    log.debug("insights written", { transcription_id: id, ms: Math.round(performance.now() - started) });
    return stored;
  } catch (err) {
    log.warn("insights not written", { transcription_id: id, ...errorFields(err) });
    return null;
  }
}
