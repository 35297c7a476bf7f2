import { db } from "@/lib/db/client.ts";
import { pageTake, paginate } from "@/lib/db/paginate.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import { presentItem } from "@/lib/posts/items/present-item.ts";
import { sourceNoteStates } from "@/lib/posts/items/source-note.ts";
import type { ListItemsQuery } from "@/lib/posts/schemas.ts";

const DEFAULT_LIMIT = 50;
// Cursor = the last returned id (uuid v7: time-ordered), so pages stay stable as new ones arrive.
const isId = (key: string) => /^[0-9a-f-]{36}$/.test(key);

/** The user's masters, newest first. */
export async function listMasters({ userId, input }: { userId: string; input: ListItemsQuery }) {
  const prisma = await db();
  const limit = input.limit ?? DEFAULT_LIMIT;
  const rows = await prisma.post.findMany({
    where: {
      userId,
      kind: "master",
      ...(input.source_transcription_id && { sourceTranscriptionId: input.source_transcription_id }),
      ...(input.cursor && { id: { lt: decodeCursor(input.cursor, isId) } }),
    },
    orderBy: { id: "desc" },
    take: pageTake(limit),
  });
  const { page, nextCursor } = paginate(rows, limit, (last) => encodeCursor(last.id));
  const notes = await sourceNoteStates(prisma, userId, page);
  return { items: page.map((row) => presentItem(row, { note: notes.get(row.id) })), next_cursor: nextCursor };
}
