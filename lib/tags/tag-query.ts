import { normalizeTag } from "@/lib/tags/normalize-tag.ts";

// `tag:` in a search: `tag:work idea` keeps the notes tagged work and searches them for "idea";
// `tag:"client x"` for a tag with a space, `-tag:draft` leaves a tag's notes out. The rest of the
// query is searched as before (web search syntax, the last word a prefix while typed).

const TAG_TERM = /(^|\s)(-?)tag:(?:"([^"]*)"?|(\S*))/giu;

export type TagTerms = { tags: string[]; excluded: string[]; rest: string };

export function splitTagTerms(q: string): TagTerms {
  const tags: string[] = [];
  const excluded: string[] = [];
  const rest = q.replace(TAG_TERM, (_all, space: string, minus: string, quoted?: string, bare?: string) => {
    const name = normalizeTag(quoted ?? bare ?? "");
    if (name) (minus ? excluded : tags).push(name);
    return space;
  });
  // A tag term typed last leaves the words before it finished (no prefix), as a space would.
  return { tags, excluded, rest: rest.replace(/\s+/gu, " ").trimStart() };
}
