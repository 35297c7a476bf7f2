import { z } from "zod";
import { pageTake, paginate } from "@/lib/db/paginate.ts";
import type { Prisma } from "@/lib/db/generated/client.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import { heavyTurns } from "@/lib/turns/heavy-turns.ts";
import { resolveTagFilter, type TagFilter } from "@/lib/tags/tag-filter.ts";
import { splitTagTerms } from "@/lib/tags/tag-query.ts";
import { fittingCount } from "@/lib/notes/page-bytes.ts";
import { listedBytes, listKeys, notesWithCleanUp } from "@/lib/notes/store/note-pages.ts";
import { presentNote } from "@/lib/notes/present-note.ts";
import type { ListTranscriptionsQuery } from "@/lib/notes/schemas.ts";
import { searchNotes } from "@/lib/notes/search-notes.ts";

// Pinned notes first, then the rest; each newest first. Cursor = the last returned id (uuid v7:
// time-ordered), with a "p" in front while still among the pinned, so pages stay stable as new
// ones arrive. An id without it (as before pins) continues among the unpinned.
const CURSOR = /^p?[0-9a-f-]{36}$/;

// A list or search reads up to a page of whole notes (PAGE_BYTES): a person's run one at a time,
// the next waiting as long again as the last one took, so that one person's many heavy reads have
// the server (the embedded database's one session, PostgreSQL's pool, the event loop) half of the
// time at most, and everyone else's requests the rest (issue 60; bench:heavy-readers). A person's
// occasional list, or a search as they type, never waits: the rest applies only to one queued behind.
export const LISTS_AT_ONCE_PER_USER = 1;
const listTurns = heavyTurns("lists and searches", { perPerson: LISTS_AT_ONCE_PER_USER, maxWaiting: 64, restFor: (elapsed) => elapsed });

/** The user's transcriptions (without segments and words, which GET by id returns); with q, those that match it; with a tag, those that carry it. */
export function listNotes({ userId, input }: { userId: string; input: z.output<typeof ListTranscriptionsQuery> }) {
  return listTurns(userId, () => listNotesNow({ userId, input }));
}

async function listNotesNow({ userId, input }: { userId: string; input: z.output<typeof ListTranscriptionsQuery> }) {
  const terms = splitTagTerms(input.q ?? "");
  const filter = await resolveTagFilter({ userId, tags: [...(input.tag ? [input.tag] : []), ...terms.tags], excluded: terms.excluded });
  if (filter?.none) return { transcriptions: [], next_cursor: null };
  if (terms.rest.trim()) return searchNotes({ userId, input: { ...input, q: terms.rest }, tags: filter });
  const after = input.cursor ? decodeCursor(input.cursor, (key) => CURSOR.test(key)) : null;
  // The page's notes first (ids only), then as many of them as PAGE_BYTES holds, whole.
  const keys = await listKeys({ userId, where: { ...tagWhere(filter), ...(after && afterCursor(after)) }, take: pageTake(input.limit) });
  const ids = keys.slice(0, input.limit).map((k) => k.id);
  const fit = fittingCount(ids, await listedBytes(ids));
  const rows = await notesWithCleanUp({ userId, ids: ids.slice(0, fit) });
  const { page, nextCursor } = paginate(fit < ids.length ? keys.slice(0, fit + 1) : keys, fit < ids.length ? fit : input.limit, (last) =>
    encodeCursor(`${last.pinned ? "p" : ""}${last.id}`),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const transcriptions = page.flatMap(({ id }) => {
    const row = byId.get(id);
    return row ? [{ ...presentNote(row), segments: undefined, words: undefined }] : []; // deleted between the reads
  });
  return { transcriptions, next_cursor: nextCursor };
}

function afterCursor(key: string): Prisma.NoteWhereInput {
  const id = key.replace(/^p/, "");
  return key.startsWith("p") ? { OR: [{ pinned: true, id: { lt: id } }, { pinned: false }] } : { pinned: false, id: { lt: id } };
}

function tagWhere(filter: TagFilter | null): Prisma.NoteWhereInput {
  if (!filter) return {};
  return {
    ...(filter.tags.length && { tags: { hasEvery: filter.tags } }),
    ...(filter.excluded.length && { NOT: { tags: { hasSome: filter.excluded } } }),
  };
}
