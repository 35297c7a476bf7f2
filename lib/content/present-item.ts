import type { Database } from "@/lib/db/client.ts";
import { contentHash } from "@/lib/content/content-hash.ts";
import { splitPosts } from "@/lib/content/generators/platform-rules.ts";
import { approvalState, freshness, type GenerationState } from "@/lib/content/states.ts";
import type { ContentItem } from "@/lib/content/schemas.ts";

type Tx = Parameters<Parameters<Database["$transaction"]>[0]>[0];
export type Db = Database | Tx;

export type ItemRow = {
  id: string;
  kind: string;
  masterId: string | null;
  title: string;
  body: string;
  contentHash: string;
  version: number;
  sourceTranscriptionId: string | null;
  channelId: string | null;
  presetId: string | null;
  sourceHash: string | null;
  sourceVersion: number | null;
  approvedHash: string | null;
  approvedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};
export type TaskRow = {
  id: string;
  state: string;
  generator: string;
  error: string | null;
  resultTitle: string | null;
  resultBody: string | null;
  createdAt: Date;
  finishedAt: Date | null;
};

/** The latest generation task of each variant. */
export async function latestTasks(prisma: Db, variantIds: string[]): Promise<Map<string, TaskRow>> {
  const tasks = await prisma.generationTask.findMany({
    where: { variantId: { in: variantIds } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    distinct: ["variantId"],
  });
  return new Map(tasks.map((t) => [t.variantId, t]));
}

function generationInfo(task: TaskRow | undefined): ContentItem["generation"] {
  if (!task) return null;
  const setAside =
    task.state === "conflicted" && task.resultTitle !== null && task.resultBody !== null
      ? { title: task.resultTitle, body: task.resultBody, content_hash: contentHash(task.resultTitle, task.resultBody) }
      : null;
  return {
    task_id: task.id,
    state: task.state as GenerationState,
    generator: task.generator,
    error: task.error,
    created_at: task.createdAt.toISOString(),
    finished_at: task.finishedAt?.toISOString() ?? null,
    set_aside: setAside,
  };
}

/** The API view of a master (no master given) or a variant (with its master and latest task). */
export function presentItem(row: ItemRow, related: { master?: { contentHash: string }; task?: TaskRow } = {}): ContentItem {
  const isVariant = row.kind === "variant";
  return {
    id: row.id,
    kind: isVariant ? "variant" : "master",
    master_id: row.masterId,
    title: row.title,
    body: row.body,
    content_hash: row.contentHash,
    version: row.version,
    source_transcription_id: row.sourceTranscriptionId,
    channel_id: row.channelId,
    preset_id: row.presetId,
    posts: isVariant ? splitPosts(row.body) : null,
    source:
      isVariant && row.sourceHash !== null && row.sourceVersion !== null
        ? { content_hash: row.sourceHash, version: row.sourceVersion }
        : null,
    generation: isVariant ? generationInfo(related.task) : null,
    approval: isVariant
      ? { state: approvalState(row), approved_hash: row.approvedHash, approved_at: row.approvedAt?.toISOString() ?? null }
      : null,
    freshness: isVariant && related.master ? freshness(row, related.master) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** One of the user's items with what its view needs; null when missing or someone else's. */
export async function loadItem(prisma: Db, userId: string, id: string): Promise<ContentItem | null> {
  const row = await prisma.contentItem.findFirst({ where: { id, userId } });
  if (!row) return null;
  if (row.kind !== "variant" || !row.masterId) return presentItem(row);
  const master = await prisma.contentItem.findUniqueOrThrow({ where: { id: row.masterId } });
  const tasks = await latestTasks(prisma, [row.id]);
  return presentItem(row, { master, task: tasks.get(row.id) });
}
