// Lists fetch one row more than the page holds: the extra row says whether a next page exists.

/** How many rows to fetch for a page of `limit` (no limit: all of them). */
export const pageTake = (limit: number | undefined) => (limit === undefined ? undefined : limit + 1);

/** Splits rows fetched with pageTake into the page and the cursor after its last row (null on the last page). */
export function paginate<T>(rows: T[], limit: number | undefined, cursorAfter: (last: T) => string) {
  const hasMore = limit !== undefined && rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  return { page, nextCursor: hasMore ? cursorAfter(page[page.length - 1]) : null };
}
