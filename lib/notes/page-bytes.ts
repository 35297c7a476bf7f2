// A list or search page holds at most `limit` notes and, beyond its first note, at most this many
// bytes of their texts (the text, the recognized text and the clean-up, which each list item
// carries): 100 notes of 1 MB made 30 MB answers that held the one embedded session for 30 s while
// another person's `limit=1` waited 20 s (issue 60). A page cut short says so with its next_cursor,
// as a full one does; notes of a few kilobytes, the usual, fill their `limit` as before.
export const PAGE_BYTES = 1024 * 1024;

/** How many of `ids`, in order, a page holds: those within PAGE_BYTES, and always the first. */
export function fittingCount(ids: string[], bytes: Map<string, number>, budget = PAGE_BYTES): number {
  let total = 0;
  for (let i = 0; i < ids.length; i++) {
    total += bytes.get(ids[i]) ?? 0;
    if (total > budget && i > 0) return i;
  }
  return ids.length;
}
