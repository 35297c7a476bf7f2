import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { contentHash } from "@/lib/posts/items/content-hash.ts";
import { loadItem } from "@/lib/posts/items/load-item.ts";
import { noteTextHash, sourceTextOf } from "@/lib/posts/items/source-note.ts";
import { afterContentChange } from "@/lib/posts/items/states.ts";
import { lockPost } from "@/lib/posts/store/owned-post.ts";
import { updatePost } from "@/lib/posts/store/post-writes.ts";
import { findOwnedNote } from "@/lib/notes/store/owned-note.ts";
import type { ContentItem, RefreshFromNoteInput } from "@/lib/posts/schemas.ts";

/**
 * "Update": copies the note's current text into the master it was made from, if the master still
 * has the content_hash the client last read (else 409 edit_conflict). Like any edit of a master,
 * a real change bumps its version and makes its variants stale; their approvals stay on the old
 * text, so they no longer count.
 */
export async function refreshFromNote({ userId, id, input }: { userId: string; id: string; input: RefreshFromNoteInput }): Promise<ContentItem> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const row = await lockPost(tx, userId, id, "master");
    if (row.contentHash !== input.expected_content_hash) {
      throw new ApiError("edit_conflict", `The master changed since you read it (its content_hash is now ${row.contentHash}); read it again.`);
    }
    const note = row.sourceTranscriptionId
      ? await findOwnedNote({ userId, id: row.sourceTranscriptionId, tx })
      : null;
    if (!note || !row.sourceNoteHash) {
      throw new ApiError("no_source_note", "This master was not copied from a note that still exists; edit its text instead.");
    }
    const source = sourceTextOf(note);
    const hash = contentHash(row.title, source.text);
    await updatePost(tx, id, {
      body: source.text,
      sourceTextKind: source.kind,
      sourceNoteHash: noteTextHash(source.text),
      ...(hash !== row.contentHash && afterContentChange(row, hash)),
    });
    return (await loadItem(tx, userId, id))!;
  }, TRANSACTION_OPTIONS);
}
