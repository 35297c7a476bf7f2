import type { GenerationTask, Post as ItemRow } from "@/lib/db/generated/client.ts";
import { contentHash } from "@/lib/posts/items/content-hash.ts";
import { splitPosts } from "@/lib/posts/generators/platform-rules.ts";
import { approvalState, freshness, type GenerationState } from "@/lib/posts/items/states.ts";
import type { ContentItem } from "@/lib/posts/schemas.ts";
import type { SourceNoteState } from "@/lib/posts/items/source-note.ts";
import { localModelOnItsWay } from "@/lib/writer/local/status.ts";

function generationInfo(task: GenerationTask | undefined): ContentItem["generation"] {
  if (!task) return null;
  const setAside =
    task.state === "conflicted" && task.resultTitle !== null && task.resultBody !== null
      ? { title: task.resultTitle, body: task.resultBody, content_hash: contentHash(task.resultTitle, task.resultBody) }
      : null;
  return {
    task_id: task.id,
    state: task.state as GenerationState,
    generator: task.generator,
    written_by: task.writtenBy as "writer" | "local-model" | "offline" | "external" | null,
    offline_reason: task.offlineReason,
    partial_body: task.state === "running" ? task.partialBody : null,
    model_on_its_way: localModelOnItsWay(),
    error: task.error,
    created_at: task.createdAt.toISOString(),
    finished_at: task.finishedAt?.toISOString() ?? null,
    set_aside: setAside,
  };
}

/** The API view of a master (no master given) or a variant (with its master and latest task). */
export function presentItem(
  row: ItemRow,
  related: { master?: { contentHash: string }; task?: GenerationTask; note?: SourceNoteState } = {},
): ContentItem {
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
    source_text_kind: row.sourceTextKind as ContentItem["source_text_kind"],
    source_outdated: related.note ? related.note.outdated : null,
    source_note_updated_at: related.note?.noteUpdatedAt.toISOString() ?? null,
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
