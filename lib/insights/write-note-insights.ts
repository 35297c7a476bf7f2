import { errorFields, log } from "@/lib/log.ts";
import { refreshInsights } from "@/lib/insights/refresh-insights.ts";
import type { Insights } from "@/lib/insights/schemas.ts";
import { queueWriterInsights } from "@/lib/insights/writer-insights-job.ts";
import { writerFor } from "@/lib/writer/providers.ts";
import { uneditedNotesOfCleanUp } from "@/lib/notes/store/note-writes.ts";

/**
 * A note's insights after its text changed: written offline at once (the request waits for them,
 * a few ms), and, when a writer is set up, written again by it in the background, so no upload or
 * edit waits for a model; a writer's insights of the text before stay meanwhile. Never throws.
 * When the writer's insights of this very text are stored already (a clean-up that came back
 * unchanged, a title set back), they stay and nothing is queued.
 */
export async function writeNoteInsights({ userId, id }: { userId: string; id: string }): Promise<Insights | null> {
  const byModel = writerFor("insights") === "model";
  const { insights, ofThisText } = await refreshInsights({ userId, id, writerQueued: byModel });
  if (byModel && (!insights || insights.written_by === "offline" || !ofThisText)) await queueWriterInsights({ userId, id });
  return insights;
}

/** After a clean-up completed: rewrites the insights of the notes that show it (those not edited). */
export async function refreshInsightsAfterCleanUp(workflowId: string): Promise<void> {
  try {
    const notes = await uneditedNotesOfCleanUp(workflowId);
    for (const note of notes) await writeNoteInsights(note);
  } catch (err) {
    log.warn("insights not written after clean-up", { optimizer_workflow_id: workflowId, ...errorFields(err) });
  }
}
