// A tag as people type it and as it is kept: one pure place for what "the same tag" means.
// "#Work ", "work" and "WORK" are one tag; the first spelling a person used is kept (lib/tags/
// user-tags.ts), so chips read as they typed them. No database here: unit-tested on its own.

export const TAG_MAX = 40;
export const TAGS_PER_NOTE_MAX = 10;

/** The tag as kept: Unicode NFC, without leading #, spaces collapsed and trimmed. */
export function normalizeTag(raw: string): string {
  return raw.normalize("NFC").replace(/\s+/gu, " ").trim().replace(/^#+\s*/u, "").trim();
}

/** The key two spellings of one tag share (case and compatibility forms aside). */
export const tagKey = (tag: string): string => normalizeTag(tag).normalize("NFKC").toLowerCase();

/** The tags without repeats (case aside), first spelling and order kept. */
export function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const key = tagKey(tag);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Tags spelled as the person already spells them elsewhere (`spellings`: key → spelling). */
export function spelledAsBefore(tags: readonly string[], spellings: ReadonlyMap<string, string>): string[] {
  return uniqueTags(tags.map((tag) => spellings.get(tagKey(tag)) ?? tag));
}
