import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import type { Db } from "@/lib/db/types.ts";
import { retryOnUniqueViolation } from "@/lib/db/unique-violation.ts";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { KEY_KINDS, replayOrConflict } from "@/lib/idempotency/key-kinds.ts";
import { hashRequest } from "@/lib/idempotency/request-hash.ts";
import { contentHash } from "@/lib/posts/items/content-hash.ts";
import { enqueueGeneration } from "@/lib/posts/generation/generation-job.ts";
import { createGenerationTask, snapshotOf } from "@/lib/posts/generation/generation-task.ts";
import { lockPost } from "@/lib/posts/store/owned-post.ts";
import { findVariant } from "@/lib/posts/store/post-lists.ts";
import { createPost } from "@/lib/posts/store/post-writes.ts";
import type { CreateVariantsInput, VariantsResult } from "@/lib/posts/schemas.ts";

export type CreateVariantsAnswer = { status: 200 | 201; body: VariantsResult; replayed: boolean };

async function checkTargets(tx: Db, userId: string, input: CreateVariantsInput): Promise<void> {
  const channelIds = [...new Set(input.targets.map((t) => t.channel_id))];
  const presetIds = [...new Set(input.targets.map((t) => t.preset_id))];
  const channels = await tx.channel.findMany({ where: { id: { in: channelIds }, userId } });
  const presets = await tx.preset.findMany({ where: { id: { in: presetIds }, OR: [{ userId: null }, { userId }] } });
  for (const id of channelIds) {
    const channel = channels.find((c) => c.id === id);
    if (!channel) throw notFound(`The channel ${id}`);
    if (!channel.active) throw new ApiError("channel_inactive", `The channel ${id} is inactive; activate it to make variants for it.`);
  }
  for (const id of presetIds) if (!presets.some((p) => p.id === id)) throw notFound(`The preset ${id}`);
}

/**
 * Creates (or reuses) one variant per target and queues their generation. Idempotent per
 * client_request_id: the same master content, targets and source snapshot replay the first
 * answer; anything else is 409 idempotency_conflict. The master's row lock serialises concurrent
 * requests; unique keys (user, client_request_id) and (master, channel, preset) make a second set
 * impossible even without it.
 */
export async function createVariants({ userId, masterId, input }: { userId: string; masterId: string; input: CreateVariantsInput }): Promise<CreateVariantsAnswer> {
  const answer = await retryOnUniqueViolation(async () => {
    const prisma = await db();
    return prisma.$transaction(async (tx) => {
      const master = await lockPost(tx, userId, masterId, "master");
      const targets = [...input.targets].sort((a, b) => `${a.channel_id}\n${a.preset_id}`.localeCompare(`${b.channel_id}\n${b.preset_id}`));
      const requestHash = hashRequest({
        master_id: master.id,
        master_content_hash: master.contentHash,
        source_snapshot: { content_hash: master.contentHash, version: master.version },
        targets,
      });
      const earlier = replayOrConflict(
        KEY_KINDS.variants,
        await tx.variantRequest.findUnique({ where: { userId_clientRequestId: { userId, clientRequestId: input.client_request_id } } }),
        requestHash,
      );
      if (earlier) {
        return { status: earlier.status as 200 | 201, body: earlier.response as VariantsResult, replayed: true, taskIds: [] };
      }
      await checkTargets(tx, userId, input);
      const variants: VariantsResult["variants"] = [];
      for (const target of input.targets) {
        const where = { masterId: master.id, channelId: target.channel_id, presetId: target.preset_id };
        const existing = await findVariant(tx, where);
        if (existing) {
          variants.push({ ...target, variant_id: existing.id, created: false, task_id: null });
          continue;
        }
        const snapshot = snapshotOf(master);
        const variant = await createPost({ userId, kind: "variant", ...where, title: master.title, body: "", contentHash: contentHash(master.title, ""), ...snapshot }, tx);
        const task = await createGenerationTask(tx, { userId, variant, snapshot });
        variants.push({ ...target, variant_id: variant.id, created: true, task_id: task.id });
      }
      const body: VariantsResult = { master_id: master.id, client_request_id: input.client_request_id, variants };
      const status = variants.some((v) => v.created) ? 201 : 200;
      await tx.variantRequest.create({
        data: { userId, clientRequestId: input.client_request_id, masterId: master.id, requestHash, status, response: body },
      });
      return { status, body, replayed: false, taskIds: variants.flatMap((v) => v.task_id ?? []) } as const;
    }, TRANSACTION_OPTIONS);
  });
  if (answer.taskIds.length) await enqueueGeneration(answer.taskIds);
  return { status: answer.status, body: answer.body, replayed: answer.replayed };
}
