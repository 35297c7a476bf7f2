import { db } from "@/lib/db/client.ts";
import { errorFields, log } from "@/lib/log.ts";
import { composeInsights } from "@/lib/insights/compose-insights.ts";
import type { Insights } from "@/lib/insights/schemas.ts";
import { selectInsightsWriter } from "@/lib/insights/select-writer.ts";
import { updateInsights } from "@/lib/insights/store-insights.ts";

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
 */
export async function refreshInsights({ userId, id }: { userId: string; id: string }): Promise<Insights | null> {
  const started = performance.now();
  try {
    const prisma = await db();
    const writer = selectInsightsWriter();
    const stored = await updateInsights<NoteBasis>({
      userId,
      id,
      read: () =>
        prisma.transcription.findFirst({
          where: { id, userId },
          select: { text: true, language: true, title: true, editedAt: true, insights: true, optimization: { select: { status: true, optimizedText: true } } },
        }),
      compute: (note, current) =>
        composeInsights({ input: { text: shownText(note), language: note.language, title: note.title }, previous: current, writer }),
    });
    log.debug("insights written", { transcription_id: id, ms: Math.round(performance.now() - started) });
    return stored;
  } catch (err) {
    log.warn("insights not written", { transcription_id: id, ...errorFields(err) });
    return null;
  }
}

/** After a clean-up completed: rewrites the insights of the notes that show it (those not edited). */
export async function refreshInsightsAfterCleanUp(workflowId: string): Promise<void> {
  try {
    const prisma = await db();
    const notes = await prisma.transcription.findMany({ where: { optimizationId: workflowId, editedAt: null }, select: { id: true, userId: true } });
    for (const note of notes) await refreshInsights(note);
  } catch (err) {
    log.warn("insights not written after clean-up", { optimizer_workflow_id: workflowId, ...errorFields(err) });
  }
}
