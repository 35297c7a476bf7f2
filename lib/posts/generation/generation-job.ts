import { randomUUID } from "node:crypto";
import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { listDictionaryTerms } from "@/lib/dictionary/store/dictionary-entries.ts";
import type { Prisma } from "@/lib/db/generated/client.ts";
import { defineJob, type JobContext } from "@/lib/jobs/define-job.ts";
import { enqueueJob } from "@/lib/jobs/queue.ts";
import { recoverStale } from "@/lib/jobs/recover-stale.ts";
import { validationError } from "@/lib/http/parse.ts";
import { errorFields, log } from "@/lib/log.ts";
import type { Platform } from "@/lib/channels/schemas.ts";
import { currentGenerator } from "@/lib/posts/generators/index.ts";
import { applyGenerationResult, type WrittenBy } from "@/lib/posts/generation/apply-generation-result.ts";
import { GenerationResult } from "@/lib/posts/schemas.ts";
import { isGenerationActive } from "@/lib/posts/items/states.ts";
import { findOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { asPerson } from "@/lib/turns/person-context.ts";

// The built-in worker: runs the configured generator on the task's source snapshot, then applies
// the result with the same use case the signed callback (an external generator) ends in.
//
// A post may wait minutes for the model on this machine (one generation at a time, several posts
// and notes ahead of it), and pg-boss 10 has no heartbeat: a job still active after its
// expireInSeconds is presumed lost and retried, so a short expiry retried posts still waiting, and
// the retry generated each a second time. So, as the clean-up does (lib/clean-up/run-clean-up.ts):
// a run first takes the task (a lease kept by a heartbeat), a second run leaves a held task alone,
// and the expiry is long (an hour), there only for a worker that died without its heartbeat being
// noticed; the sweep below hands a task whose heartbeat stopped to a new run within a minute.

const HEARTBEAT_MS = 10_000;
/** A heartbeat older than this: the run that held the task is gone. */
const LEASE_STALE_SECONDS = 60;

async function claimTask(taskId: string, executionId: string): Promise<boolean> {
  const prisma = await db();
  const staleBefore = new Date(Date.now() - LEASE_STALE_SECONDS * 1000);
  const { count } = await prisma.generationTask.updateMany({
    where: { id: taskId, state: { in: ["queued", "running"] }, OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: staleBefore } }] },
    data: { executionId, heartbeatAt: new Date() },
  });
  return count === 1;
}

/** Updates the task only while this run holds it and it is unfinished. */
async function whileHeld(taskId: string, executionId: string, data: Prisma.GenerationTaskUpdateManyMutationInput): Promise<void> {
  const prisma = await db();
  await prisma.generationTask.updateMany({ where: { id: taskId, executionId, state: { in: ["queued", "running"] } }, data });
}

async function deliver(result: GenerationResult, origin?: WrittenBy): Promise<void> {
  // The same limits as a posted result: an over-long output fails like any generator error.
  const parsed = GenerationResult.safeParse(result);
  if (!parsed.success) throw validationError(parsed.error, "The generator's result is invalid.");
  await applyGenerationResult(parsed.data, origin);
}

/** The language the note was recognized in, when it came from a recording of the user's. */
async function noteLanguage(userId: string, transcriptionId: string | null): Promise<string | null> {
  if (!transcriptionId) return null;
  const row = await findOwnedNote({ userId, id: transcriptionId }, { language: true });
  return row?.language ?? null;
}

export const generateVariantJob = defineJob({
  name: "content-generate-variant",
  payload: z.strictObject({ taskId: z.string().min(1).max(100) }),
  retryLimit: 2,
  retryDelaySeconds: 5,
  expireInSeconds: 60 * 60,
  async run({ taskId }, ctx) {
    const prisma = await db();
    const task = await prisma.generationTask.findUnique({
      where: { id: taskId },
      include: { variant: { include: { channel: true, preset: true, master: { select: { sourceTranscriptionId: true } } } } },
    });
    if (!task || !isGenerationActive(task.state)) return; // deleted, or already finished: never written twice
    const executionId = randomUUID();
    if (!(await claimTask(taskId, executionId))) {
      log.info("variant generation left to the run that holds it", { task_id: taskId, attempt: ctx.attempt });
      return;
    }
    const heartbeat = setInterval(() => void whileHeld(taskId, executionId, { heartbeatAt: new Date() }).catch(() => undefined), HEARTBEAT_MS);
    heartbeat.unref();
    try {
      await asPerson(task.userId, () => generate(task, executionId, ctx));
    } finally {
      clearInterval(heartbeat);
    }
  },
});

type HeldTask = Prisma.GenerationTaskGetPayload<{ include: { variant: { include: { channel: true; preset: true; master: { select: { sourceTranscriptionId: true } } } } } }>;

/** The post of a task this run holds, written and applied (or failed, on the last attempt). */
async function generate(task: HeldTask, executionId: string, ctx: JobContext): Promise<void> {
  const taskId = task.id;
  const { channel, preset } = task.variant;
  if (!channel || !preset) {
    await deliver({ task_id: taskId, status: "failed", error: "The variant has no channel or preset." });
    return;
  }
  const generator = currentGenerator();
  try {
    // The names the user taught the recognizer are the ones worth tagging (the generator tells
    // names from everyday words by what each entry replaces).
    const entries = await listDictionaryTerms({ userId: task.userId });
    const partial = partialWriter(taskId);
    // Queued (waiting for the writer) until the writer starts on it; running from then on.
    const onStart = () => void whileHeld(taskId, executionId, { state: "running" }).catch(() => undefined);
    const output = await generator.generate({
      title: task.sourceTitle,
      body: task.sourceBody,
      platform: channel.platform as Platform,
      preset,
      terms: entries.map((e) => ({ misspelling: e.misspelling, correct: e.correctSpelling })),
      language: await noteLanguage(task.userId, task.variant.master?.sourceTranscriptionId ?? null),
      noteId: task.variant.master?.sourceTranscriptionId ?? null,
    }, { onPartial: partial.push, onStart });
    await partial.settled();
    await deliver(
      { task_id: taskId, status: "succeeded", title: output.title, body: output.body },
      { writtenBy: output.writtenBy ?? "offline", offlineReason: output.reason ?? null },
    );
  } catch (err) {
    if (!ctx.lastAttempt) {
      await whileHeld(taskId, executionId, { heartbeatAt: null }).catch(() => undefined); // the retry may take it at once
      throw err;
    }
    log.warn("variant generation failed", { task_id: taskId, generator: generator.name, ...errorFields(err) });
    await deliver({ task_id: taskId, status: "failed", error: `The ${generator.name} generator failed: ${(err as Error).message}` });
  }
}

const PARTIAL_EVERY_MS = 250;

/**
 * The post so far, stored on its running task a few times a second (the Make posts screen reads
 * it), one write at a time; the last text is always written.
 */
function partialWriter(taskId: string) {
  let latest: string | null = null;
  let writing: Promise<void> | null = null;
  let last = 0;
  const flush = async (): Promise<void> => {
    while (latest !== null) {
      const text = latest;
      latest = null;
      last = Date.now();
      const prisma = await db();
      await prisma.generationTask
        .updateMany({ where: { id: taskId, state: { in: ["queued", "running"] } }, data: { state: "running", partialBody: text } })
        .catch((err) => log.warn("partial post not stored", { task_id: taskId, ...errorFields(err) }));
    }
    writing = null;
  };
  return {
    push: (text: string) => {
      latest = text;
      if (!writing && Date.now() - last >= PARTIAL_EVERY_MS) writing = flush();
    },
    settled: async () => {
      await writing;
    },
  };
}

/** Queues the built-in worker for new tasks (after their transaction committed). */
export async function enqueueGeneration(taskIds: string[]): Promise<void> {
  const prisma = await db();
  for (const taskId of taskIds) {
    try {
      const jobId = await enqueueJob(generateVariantJob, { taskId });
      await prisma.generationTask.update({ where: { id: taskId }, data: { jobId } });
    } catch (err) {
      log.error("could not queue variant generation", { task_id: taskId, ...errorFields(err) });
      await prisma.generationTask.update({
        where: { id: taskId },
        data: { state: "failed", error: "The generation could not be queued; regenerate to try again.", finishedAt: new Date() },
      });
    }
  }
}

// A task can be left behind: committed but never queued (the process died in between), held by a
// run whose heartbeat stopped (its worker died), or its job gave up without reporting (every
// attempt's process died). The sweep queues the first kind, gives the second to a new run, and
// fails the third, so no variant stays "generating" — and unapprovable — for ever. A task whose
// heartbeat is fresh is being worked on (waiting for the model, or written), however old it is.
const UNQUEUED_GRACE_SECONDS = 30;
const ABANDONED_AFTER_SECONDS = 30 * 60;

export async function recoverGenerationTasks(now = new Date()): Promise<{ queued: number; failed: number }> {
  const prisma = await db();
  const unqueued = await prisma.generationTask.findMany({
    where: { state: "queued", jobId: null, createdAt: { lt: new Date(now.getTime() - UNQUEUED_GRACE_SECONDS * 1000) } },
    select: { id: true },
    take: 100,
  });
  await enqueueGeneration(unqueued.map((t) => t.id));
  const staleBefore = new Date(now.getTime() - LEASE_STALE_SECONDS * 1000);
  const stale = await prisma.generationTask.findMany({
    where: { state: { in: ["queued", "running"] }, heartbeatAt: { lt: staleBefore } },
    select: { id: true, jobId: true, heartbeatAt: true },
    take: 100,
  });
  await recoverStale(
    generateVariantJob,
    stale,
    async (task) => (await prisma.generationTask.updateMany({ where: { id: task.id, heartbeatAt: task.heartbeatAt }, data: { heartbeatAt: null } })).count > 0,
    async (task) => {
      await enqueueGeneration([task.id]);
      return true;
    },
  );
  const abandoned = await prisma.generationTask.findMany({
    where: {
      state: { in: ["queued", "running"] },
      createdAt: { lt: new Date(now.getTime() - ABANDONED_AFTER_SECONDS * 1000) },
      OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: staleBefore } }],
    },
    select: { id: true },
    take: 100,
  });
  for (const { id } of abandoned) {
    await applyGenerationResult({ task_id: id, status: "failed", error: "The generation did not finish in time; regenerate to try again." });
  }
  return { queued: unqueued.length, failed: abandoned.length };
}
