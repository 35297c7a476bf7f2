import { db } from "@/lib/db/client.ts";
import { pageTake, paginate } from "@/lib/db/paginate.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import { findMasters } from "@/lib/posts/store/post-lists.ts";
import { presentItem } from "@/lib/posts/items/present-item.ts";
import { sourceNoteStates } from "@/lib/posts/items/source-note.ts";
import type { ListItemsQuery } from "@/lib/posts/schemas.ts";

const DEFAULT_LIMIT = 50;
// Cursor = the last returned id (uuid v7: time-ordered), so pages stay stable as new ones arrive.
const isId = (key: string) => /^[0-9a-f-]{36}$/.test(key);

/** The user's masters, newest first. */
export async function listMasters({ userId, input }: { userId: string; input: ListItemsQuery }) {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const rows = await findMasters({
    userId,
    sourceNoteId: input.source_transcription_id,
    beforeId: input.cursor ? decodeCursor(input.cursor, isId) : undefined,
    take: pageTake(limit),
  });
  const { page, nextCursor } = paginate(rows, limit, (last) => encodeCursor(last.id));
  const notes = await sourceNoteStates(await db(), userId, page);
  return { items: page.map((row) => presentItem(row, { note: notes.get(row.id) })), next_cursor: nextCursor };
}
