/** What a search found, in words: "1 note matches “q”", "2 notes match “q”" (it said "1 note match"). */
export function searchCount(count: number, query: string): string {
  return count === 1 ? `1 note matches “${query}”` : `${count.toLocaleString("en")} notes match “${query}”`;
}
