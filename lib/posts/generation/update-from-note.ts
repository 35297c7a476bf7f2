import { regenerateVariant } from "@/lib/posts/generation/regenerate-variant.ts";
import { refreshFromNote } from "@/lib/posts/items/refresh-from-note.ts";
import { approvalState } from "@/lib/posts/items/states.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { listVariantApprovals } from "@/lib/posts/store/post-lists.ts";
import type { ContentItem, RefreshFromNoteInput } from "@/lib/posts/schemas.ts";

/**
 * "Update from the note" in one step, not one tap per post: the master copies the
 * note's text again and, with `rewrite_posts`, every post that is not approved is written again
 * from it. An approved post stays as it was, stale, its approval and deliveries kept: approval
 * covers exactly the text approved, so only the person can move it to new words.
 */
export async function updateFromNote({ userId, id, input }: { userId: string; id: string; input: RefreshFromNoteInput }): Promise<{ item: ContentItem; rewriting: string[] }> {
  const item = await refreshFromNote({ userId, id, input });
  if (!input.rewrite_posts) return { item, rewriting: [] };
  const variants = await listVariantApprovals({ userId, masterId: id });
  const rewriting: string[] = [];
  for (const variant of variants) {
    if (approvalState(variant) === "approved") continue;
    try {
      await regenerateVariant({ userId, id: variant.id, input: { source: "master", expected_content_hash: variant.contentHash } });
      rewriting.push(variant.id);
    } catch (err) {
      // Approved or edited a moment ago, or deleted: what the person did meanwhile stays.
      if (!(err instanceof ApiError && (err.code === "edit_conflict" || err.code === "not_found"))) throw err;
    }
  }
  return { item, rewriting };
}
