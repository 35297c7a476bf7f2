import { z } from "zod";
import { listDictionarySpellings } from "@/lib/dictionary/store/dictionary-entries.ts";
import { defineJob } from "@/lib/jobs/define-job.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { errorFields, log } from "@/lib/log.ts";
import { refreshInsights } from "@/lib/insights/refresh-insights.ts";
import { writerInsights } from "@/lib/insights/writer-insights.ts";
import { asPerson } from "@/lib/turns/person-context.ts";

// Insights by the writer, in the background: the offline ones are already stored (written while
// the request waited); this rewrites them from the note's text as it is when the job runs, with
// the person's dictionary spellings. A writer that fails leaves the offline insights, now marked
// with the reason. refreshInsights never throws, so the queue does not retry a writer that is
// down (its breaker already decided that). Its expiry is an hour: the insights may wait minutes
// for the model on this machine behind other notes' work, and pg-boss 10 retries a job still
// active after its expiry (no heartbeat), which would write them twice.

export const writeInsightsJob = defineJob({
  name: "insights-by-writer",
  payload: z.strictObject({ userId: z.string().min(1).max(100), transcriptionId: z.string().min(1).max(100) }),
  retryLimit: 1,
  retryDelaySeconds: 10,
  expireInSeconds: 60 * 60,
  async run({ userId, transcriptionId }) {
    const terms = await listDictionarySpellings({ userId, take: 10_000 });
    await asPerson(userId, () => refreshInsights({ userId, id: transcriptionId, writer: writerInsights(terms.map((t) => t.correctSpelling), transcriptionId) }));
  },
});

/** Queues the writer's insights of a note; a queue that cannot take it is logged (the offline ones stay). */
export async function queueWriterInsights({ userId, id }: { userId: string; id: string }): Promise<void> {
  try {
    await enqueueJob(writeInsightsJob, { userId, transcriptionId: id });
  } catch (err) {
    log.warn("insights by the writer not queued", { transcription_id: id, ...errorFields(err) });
  }
}
