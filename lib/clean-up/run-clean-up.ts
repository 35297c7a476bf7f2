import { randomUUID } from "node:crypto";
import { loadDictionary } from "@/lib/dictionary/store/dictionary-entries.ts";
import { compileDictionary, type DictionaryEntry } from "@/lib/dictionary/matcher.ts";
import { env } from "@/lib/env.ts";
import { refreshInsightsAfterCleanUp } from "@/lib/insights/write-note-insights.ts";
import { log } from "@/lib/log.ts";
import { joinChunks } from "@/lib/clean-up/chunk-text.ts";
import { compute } from "@/lib/compute/pool.ts";
import { judgeCleanUpTask, wordChangesTask } from "@/lib/clean-up/clean-up-guard.ts";
import { cleanUpByRules } from "@/lib/clean-up/rules-clean-up.ts";
import { cleanUpNamed } from "@/lib/clean-up/select-clean-up.ts";
import { claimCleanUp, listCleanUpChunks, saveCleanUpChunk, updateHeldCleanUp } from "@/lib/clean-up/store/clean-up-runs.ts";
import { getCleanUp } from "@/lib/clean-up/store/clean-up-workflows.ts";
import { CleanUpError, CleanUpRefused, type CleanUp } from "@/lib/clean-up/types.ts";
import { recordWriterOutcome } from "@/lib/writer/outcomes.ts";
import { modelWriterNow } from "@/lib/writer/providers.ts";
import { mergeDictionaries } from "@/lib/dictionary/merge-dictionaries.ts";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event.ts";
import { asPerson } from "@/lib/turns/person-context.ts";
import { latestNoteOfCleanUp } from "@/lib/notes/store/note-writes.ts";

// One execution of a clean-up workflow. An execution first claims the workflow (a lease
// kept alive by a heartbeat), so two workers never clean up the same note at once; a lease
// whose heartbeat stopped (the worker died) can be claimed by the next execution. Each finished
// chunk is stored at once, so a new execution continues where the last one stopped.

export type ExecutionOutcome = "completed" | "failed" | "released" | "skipped";

const HEARTBEAT_MS = 10_000;
const CHUNK_ATTEMPTS = 2;

async function claim(workflowId: string, executionId: string, jobId: string | null): Promise<boolean> {
  const staleBefore = new Date(Date.now() - env().OPTIMIZER_STALE_SECONDS * 1000);
  return claimCleanUp({ id: workflowId, executionId, jobId, staleBefore });
}

/** The chunk's clean-up, or why the writer's could not be used (its answer was not text). */
async function cleanChunk(cleanUp: CleanUp, text: string, spellings: string[], key: string): Promise<string | CleanUpRefused> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await cleanUp.clean({ text, spellings, key });
    } catch (err) {
      if (err instanceof CleanUpRefused) return err;
      const retryable = !(err instanceof CleanUpError) || err.retryable;
      if (!retryable || attempt >= CHUNK_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/** Why a part's clean-up was not used, as the note's details say it. */
function refusal(reason: string, index: number, parts: number): string {
  const where = parts > 1 ? `In part ${index + 1} of ${parts}, the writer's clean-up was not used: ` : "The writer's clean-up was not used: ";
  return `${where}${reason}. The note keeps the words that were recognized.`;
}

async function dictionaryFor(userId: string, requestDictionary: unknown): Promise<DictionaryEntry[]> {
  return mergeDictionaries(await loadDictionary(userId), (requestDictionary ?? []) as DictionaryEntry[]);
}

/**
 * Runs (or continues) a workflow. `final`: a failure now is the last word (no retry will follow),
 * so the workflow is marked failed; otherwise the lease is released for the retry.
 */
export async function runCleanUp({
  workflowId,
  jobId = null,
  final = true,
}: {
  workflowId: string;
  jobId?: string | null;
  final?: boolean;
}): Promise<ExecutionOutcome> {
  const executionId = randomUUID();
  if (!(await claim(workflowId, executionId, jobId))) return "skipped";
  const workflow = await getCleanUp(workflowId);
  const fields = { optimizer_workflow_id: workflow.id, optimizer_execution_id: executionId };
  log.info("optimization started", { ...fields, chunks_total: workflow.chunksTotal, chunks_done: workflow.chunksDone });

  const heartbeat = setInterval(() => void updateHeldCleanUp(workflowId, executionId, { heartbeatAt: new Date() }).catch(() => undefined), HEARTBEAT_MS);
  heartbeat.unref();
  try {
    const entries = await dictionaryFor(workflow.userId, workflow.requestDictionary);
    const spellings = [...new Set(entries.map((e) => e.correctSpelling))];
    const cleanUp = cleanUpNamed(workflow.optimizer);
    const pending = await listCleanUpChunks(workflowId, { pending: true });
    // The writer's outcome is counted for the note it cleans up (its insights and posts are the same note's), else for the clean-up.
    const key = (await latestNoteOfCleanUp({ userId: workflow.userId, optimizationId: workflow.id }))?.id ?? workflow.id;
    for (const chunk of pending) {
      const written = await asPerson(workflow.userId, () => cleanChunk(cleanUp, chunk.inputText, spellings, key));
      // A clean-up that does not keep what was said (or is not text) is not used: that part gets
      // the offline rules' clean-up of the recognized words (punctuation, casing, no fillers) instead.
      const verdict =
        written instanceof CleanUpRefused
          ? { kept: false, reason: written.message, dropped: null, added: null }
          : await compute(workflow.userId, judgeCleanUpTask, { recognized: chunk.inputText, cleaned: written });
      const outputText = verdict.kept && typeof written === "string" ? written : cleanUpByRules(chunk.inputText);
      if (!verdict.kept) log.warn("clean-up refused", { ...fields, chunk: chunk.index, dropped: verdict.dropped, added: verdict.added });
      // The guard's refusal is the writer's outcome for this clean-up too (Settings → Writing says it).
      if (!verdict.kept && !(written instanceof CleanUpRefused) && cleanUp.name === "openai") {
        recordWriterOutcome({ task: "clean-up", key, by: modelWriterNow() ?? "writer", ok: false, reason: "its clean-up did not keep what you said" });
      }
      const rejectedReason = verdict.kept ? undefined : refusal(verdict.reason!, chunk.index, workflow.chunksTotal);
      const saved = await saveCleanUpChunk({ workflowId, executionId, index: chunk.index, outputText, rejectedReason });
      if (!saved) {
        log.warn("optimization lease lost", fields);
        return "skipped";
      }
    }
    const chunks = await listCleanUpChunks(workflowId);
    const dictionary = compileDictionary(entries);
    const text = dictionary.apply(joinChunks(chunks.map((c) => ({ paragraph: c.paragraph, outputText: c.outputText ?? "" })))).text;
    const recognized = dictionary.apply(joinChunks(chunks.map((c) => ({ paragraph: c.paragraph, outputText: c.inputText })))).text;
    const done = await updateHeldCleanUp(workflowId, executionId, {
      status: "completed",
      optimizedText: text,
      changes: await compute(workflow.userId, wordChangesTask, { recognized, cleaned: text }),
      chunksDone: chunks.length,
      completedAt: new Date(),
      heartbeatAt: null,
      errorCode: null,
      errorMessage: null,
    });
    log.info("optimization completed", { ...fields, chunks_total: chunks.length });
    // The notes showing this clean-up get insights of the cleaned text (never fails: it logs).
    if (done) await refreshInsightsAfterCleanUp(workflowId);
    if (done) await emitWebhookEvent({ userId: workflow.userId, type: "optimization.completed", subjectId: workflowId });
    return done ? "completed" : "skipped";
  } catch (err) {
    const code = err instanceof CleanUpError ? err.code : "optimizer_failed";
    const message = err instanceof CleanUpError ? err.message : "The optimizer failed unexpectedly.";
    const giveUp = final || (err instanceof CleanUpError && !err.retryable);
    await updateHeldCleanUp(workflowId, executionId, giveUp
      ? { status: "failed", errorCode: code, errorMessage: message, completedAt: new Date(), heartbeatAt: null }
      : { heartbeatAt: null, errorCode: code, errorMessage: message });
    log.warn(giveUp ? "optimization failed" : "optimization attempt failed", { ...fields, error_code: code });
    if (giveUp) return "failed";
    throw err;
  } finally {
    clearInterval(heartbeat);
  }
}
