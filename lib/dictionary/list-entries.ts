import { z } from "zod";
import { pageTake, paginate } from "@/lib/db/paginate.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import { listDictionaryEntries } from "@/lib/dictionary/store/dictionary-entries.ts";
import { ListEntriesQuery, toDictionaryEntry, type DictionaryEntry } from "@/lib/dictionary/schemas.ts";

// Cursor = the last returned match key, so pages stay stable while entries are added or removed.

export async function listEntries({ userId, input }: { userId: string; input: z.output<typeof ListEntriesQuery> }) {
  const rows = await listDictionaryEntries({
    userId,
    afterKey: input.cursor ? decodeCursor(input.cursor) : undefined,
    take: pageTake(input.limit),
  });
  const { page, nextCursor } = paginate(rows, input.limit, (last) => encodeCursor(last.matchKey));
  const entries: DictionaryEntry[] = page.map(toDictionaryEntry);
  return { entries, next_cursor: nextCursor };
}
