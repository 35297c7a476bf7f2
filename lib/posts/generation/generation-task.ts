import type { Db } from "@/lib/db/types.ts";
import { currentGenerator } from "@/lib/posts/generators/index.ts";

/** What a variant is generated from: the master's title and body at one version. */
export type SourceSnapshot = { sourceTitle: string; sourceBody: string; sourceHash: string; sourceVersion: number };

export function snapshotOf(master: { title: string; body: string; contentHash: string; version: number }): SourceSnapshot {
  return { sourceTitle: master.title, sourceBody: master.body, sourceHash: master.contentHash, sourceVersion: master.version };
}

/**
 * A queued generation task for a variant at its current version (a result for an older version
 * is set aside). The caller enqueues it once its transaction has committed.
 */
export function createGenerationTask(
  tx: Db,
  { userId, variant, snapshot }: { userId: string; variant: { id: string; version: number }; snapshot: SourceSnapshot },
) {
  return tx.generationTask.create({
    data: { userId, variantId: variant.id, state: "queued", generator: currentGenerator().name, baseVersion: variant.version, ...snapshot },
  });
}
