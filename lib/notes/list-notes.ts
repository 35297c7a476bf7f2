import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { pageTake, paginate } from "@/lib/db/paginate.ts";
import type { Prisma } from "@/lib/db/generated/client.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import { resolveTagFilter, type TagFilter } from "@/lib/tags/tag-filter.ts";
import { splitTagTerms } from "@/lib/tags/tag-query.ts";
import { presentNote } from "@/lib/notes/present-note.ts";
import type { ListTranscriptionsQuery } from "@/lib/notes/schemas.ts";
import { searchNotes } from "@/lib/notes/search-notes.ts";

// Pinned notes first, then the rest; each newest first. Cursor = the last returned id (uuid v7:
// time-ordered), with a "p" in front while still among the pinned, so pages stay stable as new
// ones arrive. An id without it (as before pins) continues among the unpinned.
const CURSOR = /^p?[0-9a-f-]{36}$/;

/** The user's transcriptions (without segments and words, which GET by id returns); with q, those that match it; with a tag, those that carry it. */
export async function listNotes({ userId, input }: { userId: string; input: z.output<typeof ListTranscriptionsQuery> }) {
  const terms = splitTagTerms(input.q ?? "");
  const filter = await resolveTagFilter({ userId, tags: [...(input.tag ? [input.tag] : []), ...terms.tags], excluded: terms.excluded });
  if (filter?.none) return { transcriptions: [], next_cursor: null };
  if (terms.rest.trim()) return searchNotes({ userId, input: { ...input, q: terms.rest }, tags: filter });
  const prisma = await db();
  const after = input.cursor ? decodeCursor(input.cursor, (key) => CURSOR.test(key)) : null;
  const rows = await prisma.transcription.findMany({
    where: { userId, ...tagWhere(filter), ...(after && afterCursor(after)) },
    orderBy: [{ pinned: "desc" }, { id: "desc" }],
    take: pageTake(input.limit),
    include: { optimization: true },
  });
  const { page, nextCursor } = paginate(rows, input.limit, (last) => encodeCursor(`${last.pinned ? "p" : ""}${last.id}`));
  return { transcriptions: page.map((row) => ({ ...presentNote(row), segments: undefined, words: undefined })), next_cursor: nextCursor };
}

function afterCursor(key: string): Prisma.TranscriptionWhereInput {
  const id = key.replace(/^p/, "");
  return key.startsWith("p") ? { OR: [{ pinned: true, id: { lt: id } }, { pinned: false }] } : { pinned: false, id: { lt: id } };
}

function tagWhere(filter: TagFilter | null): Prisma.TranscriptionWhereInput {
  if (!filter) return {};
  return {
    ...(filter.tags.length && { tags: { hasEvery: filter.tags } }),
    ...(filter.excluded.length && { NOT: { tags: { hasSome: filter.excluded } } }),
  };
}
