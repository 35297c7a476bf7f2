import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/db/generated/client.ts";
import { isUniqueViolation } from "@/lib/db/unique-violation.ts";
import type { DictionaryEntry } from "@/lib/dictionary/matcher.ts";
import { env } from "@/lib/env.ts";
import { errorFields, log } from "@/lib/log.ts";
import { chunkTranscript } from "@/lib/clean-up/chunk-text.ts";
import { dispatchCleanUp } from "@/lib/clean-up/clean-up-job.ts";
import { runCleanUp } from "@/lib/clean-up/run-clean-up.ts";
import { createCleanUp, findCleanUpOfRecording, getCleanUpOfRecording, retryFailedCleanUp } from "@/lib/clean-up/store/clean-up-workflows.ts";
import { configuredCleanUp } from "@/lib/clean-up/select-clean-up.ts";
import type { Segment } from "@/lib/segment.ts";
import { writerProvider } from "@/lib/writer/providers.ts";

export const WORKFLOW_NAME = "transcript-optimization";

/**
 * The clean-up workflow of a recording: the existing one for the same user and request hash
 * (a retried upload, a prefetch-cache hit — never a second dispatch), or a new one. Short audio is
 * cleaned up before this returns; long audio is queued for a job worker. Returns null when
 * the clean-up is off.
 */
export async function startCleanUp({
  userId,
  requestHash,
  transcript,
  requestDictionary,
  durationSec,
  language,
}: {
  userId: string;
  requestHash: string;
  /** The note's language (ISO 639-1): the clean-up's words are searched stemmed in it. */
  language?: string;
  transcript: { text: string; segments: Segment[] };
  requestDictionary: DictionaryEntry[];
  durationSec: number;
}): Promise<string | null> {
  const optimizer = configuredCleanUp();
  if (!optimizer) return null;
  const existing = await findCleanUpOfRecording({ userId, requestHash });
  if (existing) {
    if (existing.status === "failed") await retryFailed(existing);
    return existing.id;
  }

  const { OPTIMIZE_BACKGROUND_SECONDS, OPTIMIZER_CHUNK_WORDS } = env();
  // The model on this machine writes some ten words a second on a laptop: its clean-up runs in the
  // background whatever the length, so that no upload waits for it.
  const local = optimizer === "openai" && writerProvider()?.kind === "local";
  const mode = durationSec > OPTIMIZE_BACKGROUND_SECONDS || local ? "background" : "inline";
  const chunks = chunkTranscript(transcript.text, transcript.segments, OPTIMIZER_CHUNK_WORDS);
  let workflowId: string;
  try {
    workflowId = await createCleanUp({
      userId,
      requestHash,
      name: WORKFLOW_NAME,
      optimizer,
      mode,
      language,
      status: chunks.length ? "pending" : "completed",
      optimizedText: chunks.length ? null : "",
      completedAt: chunks.length ? null : new Date(),
      callId: randomUUID(),
      chunksTotal: chunks.length,
      requestDictionary: requestDictionary as Prisma.InputJsonValue,
      chunks: { create: chunks.map((c) => ({ index: c.index, inputText: c.inputText, paragraph: c.paragraph })) },
    });
  } catch (err) {
    // A concurrent upload of the same recording created it first: share that one.
    if (isUniqueViolation(err)) {
      return (await getCleanUpOfRecording({ userId, requestHash })).id;
    }
    throw err;
  }
  if (chunks.length) await execute({ id: workflowId, mode });
  return workflowId;
}

/** Inline: runs it now. Background: queues it for a worker. */
async function execute(workflow: { id: string; mode: string }): Promise<void> {
  if (workflow.mode === "inline") {
    await runCleanUp({ workflowId: workflow.id });
    return;
  }
  // If the queue is unreachable now, the workflow stays pending and the recovery sweep dispatches it.
  await dispatchCleanUp(workflow.id).catch((err) => log.error("optimization dispatch failed", errorFields(err)));
}

/**
 * A new upload of a recording whose clean-up failed tries it once more: a new dispatch (call
 * id) of the same workflow, continuing from the chunks that were finished.
 */
async function retryFailed(workflow: { id: string; mode: string }): Promise<void> {
  if (await retryFailedCleanUp(workflow.id, randomUUID())) await execute(workflow); // else a concurrent upload retried it already
}
