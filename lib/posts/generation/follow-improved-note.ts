import { regenerateVariant } from "@/lib/posts/generation/regenerate-variant.ts";
import { refreshFromNote } from "@/lib/posts/items/refresh-from-note.ts";
import { noteTextHash } from "@/lib/posts/items/source-note.ts";
import { approvalState } from "@/lib/posts/items/states.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { listMastersOfNote } from "@/lib/posts/store/post-lists.ts";

// Posts made from a note before its second pass (hear-again.ts) follow its new text, where nothing
// of the person's would be lost: a master still holding the note's text as it copied it (not
// edited since) and none of whose posts is approved is copied again from the note, and each post
// still as it was written for it (not edited since) is written again from the new master. An
// approved post, or an edited master or post, stays as it is; the master then says its note changed
// (source_outdated), as after any edit of the note.

/** Brings the unapproved, unedited posts made from a note up to its new text. */
export async function followImprovedNote({ userId, noteId }: { userId: string; noteId: string }): Promise<number> {
  const masters = await listMastersOfNote({ userId, noteId });
  let followed = 0;
  for (const master of masters) {
    if (noteTextHash(master.body) !== master.sourceNoteHash) continue; // the person edited the master
    if (master.variants.some((v) => approvalState(v) === "approved")) continue;
    try {
      await refreshFromNote({ userId, id: master.id, input: { expected_content_hash: master.contentHash, rewrite_posts: false } });
      for (const variant of master.variants) {
        const written = variant.generationTasks[0];
        if (!written || written.resultBody !== variant.body || written.resultTitle !== variant.title) continue; // edited by the person
        await regenerateVariant({ userId, id: variant.id, input: { source: "master", expected_content_hash: variant.contentHash } });
      }
      followed += 1;
    } catch (err) {
      // Changed by the person meanwhile: theirs stays.
      if (!(err instanceof ApiError && err.code === "edit_conflict")) throw err;
    }
  }
  return followed;
}
