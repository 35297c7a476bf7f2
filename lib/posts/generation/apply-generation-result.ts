import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { notFound } from "@/lib/http/errors.ts";
import { canonicalBody, canonicalTitle, contentHash } from "@/lib/posts/items/content-hash.ts";
import { afterContentChange, canMoveGeneration, generationOutcome, type GenerationState } from "@/lib/posts/items/states.ts";
import { getPostById, lockPostVersion } from "@/lib/posts/store/owned-post.ts";
import { updatePost } from "@/lib/posts/store/post-writes.ts";
import { TITLE_MAX, type GenerationResult } from "@/lib/posts/schemas.ts";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event.ts";

/** Who wrote a result: the built-in job says (writer or offline, and why offline); a posted one is "external". */
export type WrittenBy = { writtenBy: "writer" | "local-model" | "offline" | "external"; offlineReason: string | null };

/** Applies a generator's result to its task and, unless the user edited meanwhile, to the variant. */
export async function applyGenerationResult(
  result: GenerationResult,
  origin: WrittenBy = { writtenBy: "external", offlineReason: null },
): Promise<{ task_id: string; state: GenerationState }> {
  const prisma = await db();
  let generated: { userId: string; variantId: string } | undefined;
  const outcome = await prisma.$transaction(async (tx) => {
    const task = await tx.generationTask.findUnique({ where: { id: result.task_id } });
    if (!task) throw notFound(`The generation task ${result.task_id}`);
    const variantVersion = await lockPostVersion(tx, task.variantId);
    const current = await tx.generationTask.findUniqueOrThrow({ where: { id: task.id } });
    const from = current.state as GenerationState;
    // A result for a finished task is a duplicate delivery: answer with the state it has.
    if (!canMoveGeneration(from, "succeeded")) return { task_id: task.id, state: from };
    const finishedAt = new Date();
    if (result.status === "failed") {
      const error = result.error ?? "The generator failed.";
      await tx.generationTask.update({ where: { id: task.id }, data: { state: "failed", error, finishedAt } });
      return { task_id: task.id, state: "failed" as const };
    }
    const title = canonicalTitle((result.title ?? task.sourceTitle).replace(/\p{Cc}+/gu, " ")).slice(0, TITLE_MAX);
    const body = canonicalBody(result.body ?? "");
    const newest = await tx.generationTask.findFirst({ where: { variantId: task.variantId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    const state = generationOutcome({
      taskBaseVersion: task.baseVersion,
      variantVersion,
      isLatestTask: newest?.id === task.id,
    });
    await tx.generationTask.update({
      where: { id: task.id },
      data: { state, resultTitle: title, resultBody: body, finishedAt, writtenBy: origin.writtenBy, offlineReason: origin.offlineReason, partialBody: null },
    });
    if (state === "succeeded") {
      const variant = await getPostById(tx, task.variantId);
      await updatePost(tx, variant.id, {
        title,
        body,
        ...afterContentChange(variant, contentHash(title, body)),
        sourceTitle: task.sourceTitle,
        sourceBody: task.sourceBody,
        sourceHash: task.sourceHash,
        sourceVersion: task.sourceVersion,
      });
      generated = { userId: task.userId, variantId: task.variantId };
    }
    return { task_id: task.id, state };
  }, TRANSACTION_OPTIONS);
  // After the commit: the variant holds the new text when the event job reads it.
  if (generated) await emitWebhookEvent({ userId: generated.userId, type: "content.variants.generated", subjectId: generated.variantId });
  return outcome;
}
