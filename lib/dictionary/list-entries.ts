import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { pageTake, paginate } from "@/lib/db/paginate.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import { ListEntriesQuery, toDictionaryEntry, type DictionaryEntry } from "@/lib/dictionary/schemas.ts";

// Cursor = the last returned match key, so pages stay stable while entries are added or removed.

export async function listEntries({ userId, input }: { userId: string; input: z.output<typeof ListEntriesQuery> }) {
  const prisma = await db();
  const rows = await prisma.dictionaryEntry.findMany({
    where: { userId, ...(input.cursor && { matchKey: { gt: decodeCursor(input.cursor) } }) },
    orderBy: { matchKey: "asc" },
    take: pageTake(input.limit),
    // Only what the answer and the cursor need (not the ids).
    select: { misspelling: true, correctSpelling: true, matchKey: true, createdAt: true, updatedAt: true },
  });
  const { page, nextCursor } = paginate(rows, input.limit, (last) => encodeCursor(last.matchKey));
  const entries: DictionaryEntry[] = page.map(toDictionaryEntry);
  return { entries, next_cursor: nextCursor };
}

/** All entries of a user, as the matcher needs them (used by transcription). */
export async function loadDictionary(userId: string) {
  const prisma = await db();
  return prisma.dictionaryEntry.findMany({
    where: { userId },
    orderBy: { matchKey: "asc" },
    select: { misspelling: true, correctSpelling: true },
  });
}
